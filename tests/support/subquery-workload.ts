// Random transactions over tasks and the two tables their subquery shapes read (projects,
// members), from a seed so a failing run can be replayed. Domains are small (8 projects, 3
// teams, 5 users, 12 tasks) so that most transactions move some shape's rows in or out.

/** mulberry32: tiny, deterministic, good enough to pick statements. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const WORKLOAD_SCHEMA = `
  create table projects (id int8 primary key, team_id int8 not null, archived bool not null);
  create table members (team_id int8 not null, user_id int8 not null, primary key (team_id, user_id));
  create table tasks (id int8 primary key, project_id int8, owner_id int8, title text not null, done bool not null);`

export function workload(random: () => number) {
  const int = (min: number, max: number) =>
    min + Math.floor(random() * (max - min + 1))
  const bool = () => random() < 0.5
  const maybe = (v: number) => (random() < 0.15 ? 'null' : String(v))
  const task = () => int(1, 12)
  const project = () => int(1, 8)
  const team = () => int(1, 3)
  const user = () => int(1, 5)
  let titles = 0
  const title = () => `'t${++titles}'`

  const taskRow = (id: number) =>
    `(${id}, ${maybe(project())}, ${maybe(user())}, ${title()}, ${bool()})`

  // A key change that would collide is a no-op rather than an error that aborts the transaction.
  const statements: Array<[weight: number, make: () => string]> = [
    [
      3,
      () =>
        `insert into tasks values ${taskRow(task())} on conflict do nothing`,
    ],
    [
      4,
      () =>
        `update tasks set project_id = ${maybe(project())} where id = ${task()}`,
    ],
    [
      3,
      () => `update tasks set owner_id = ${maybe(user())} where id = ${task()}`,
    ],
    [2, () => `update tasks set done = not done where id = ${task()}`],
    [1, () => `update tasks set title = ${title()} where id = ${task()}`],
    [
      1,
      () => {
        const to = task()
        return `update tasks set id = ${to} where id = ${task()} and not exists (select from tasks where id = ${to})`
      },
    ],
    [2, () => `delete from tasks where id = ${task()}`],
    [
      1,
      () =>
        `insert into projects values (${project()}, ${team()}, ${bool()}) on conflict do nothing`,
    ],
    [
      3,
      () => `update projects set team_id = ${team()} where id = ${project()}`,
    ],
    [
      3,
      () =>
        `update projects set archived = not archived where id = ${project()}`,
    ],
    [
      1,
      () => {
        const to = project()
        return `update projects set id = ${to} where id = ${project()} and not exists (select from projects where id = ${to})`
      },
    ],
    [1, () => `delete from projects where id = ${project()}`],
    [
      2,
      () =>
        `insert into members values (${team()}, ${user()}) on conflict do nothing`,
    ],
    [
      2,
      () =>
        `delete from members where team_id = ${team()} and user_id = ${user()}`,
    ],
    [
      1,
      () => {
        const [from, to] = [user(), user()]
        const t = team()
        return `update members set user_id = ${to} where team_id = ${t} and user_id = ${from} and not exists (select from members where team_id = ${t} and user_id = ${to})`
      },
    ],
    [
      1,
      () => {
        const [from, to] = [team(), team()]
        const u = user()
        return `update members set team_id = ${to} where team_id = ${from} and user_id = ${u} and not exists (select from members where team_id = ${to} and user_id = ${u})`
      },
    ],
  ]
  const total = statements.reduce((sum, [w]) => sum + w, 0)
  const statement = () => {
    let pick = random() * total
    for (const [weight, make] of statements) {
      pick -= weight
      if (pick < 0) return make()
    }
    return (statements[0] as [number, () => string])[1]()
  }

  return {
    /** Every project, half the tasks and some memberships. */
    initial(): string {
      const projects = Array.from(
        { length: 8 },
        (_, i) => `(${i + 1}, ${team()}, ${random() < 0.3})`,
      )
      const tasks = Array.from({ length: 6 }, () => task())
      const members = Array.from({ length: 6 }, () => `(${team()}, ${user()})`)
      return [
        `insert into projects values ${projects.join(', ')}`,
        `insert into tasks values ${[...new Set(tasks)].map(taskRow).join(', ')}`,
        `insert into members values ${members.join(', ')} on conflict do nothing`,
      ].join(';\n')
    },
    /** One transaction of 1 to 4 statements, as one script. */
    transaction(): string {
      const count = int(1, 4)
      const body = Array.from({ length: count }, statement)
      return count === 1
        ? (body[0] as string)
        : ['begin', ...body, 'commit'].join(';\n')
    },
  }
}
