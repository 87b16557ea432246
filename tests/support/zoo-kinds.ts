// The kinds of table a user's database may hold, for the table zoo (table-zoo.test.ts): each
// with its DDL, the shapes followed on it, and how its rows are written. Values are SQL
// literals drawn from a seeded random source, so a failure replays with its seed.

/** A seeded source of randomness (mulberry32): the same seed, the same workload. */
export class Rand {
  constructor(private state: number) {}
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T
  }
  chance(p: number): boolean {
    return this.next() < p
  }
}

const lit = (s: string) => `'${s.replaceAll("'", "''")}'`
const PIECES = [
  'a',
  'Zz',
  'ü',
  "'",
  '"',
  '\\',
  ' ',
  '日本',
  '😀',
  ',',
  '{',
  '}',
  'NULL',
]

const text = (r: Rand, max = 8) =>
  lit(Array.from({ length: r.int(0, max) }, () => r.pick(PIECES)).join(''))
const nullable = (r: Rand, value: (r: Rand) => string) =>
  r.chance(0.1) ? 'NULL' : value(r)
const hex = (r: Rand, bytes: number) =>
  Array.from({ length: bytes }, () =>
    r.int(0, 255).toString(16).padStart(2, '0'),
  ).join('')
const uuidOf = (n: number) => {
  const h = n.toString(16).padStart(12, '0')
  return `'00000000-0000-4000-8000-${h}'`
}
/** Text no compression shrinks below the TOAST threshold: stored out of line. */
const bigText = (r: Rand) =>
  lit(Array.from({ length: 3000 }, () => hex(r, 4)).join(''))

export type ZooColumn = { name: string; value: (r: Rand) => string }

export type ZooShape = {
  /** The shape's `table` parameter, as a client writes it. */
  table: string
  columns?: string[]
  /** The relation whose rows the shape must equal (default: `table`). */
  from?: string
}

export type ZooKind = {
  name: string
  ddl: string
  /** The table the app writes (qualified, quoted as needed). */
  target: string
  /** Key columns and their SQL literal for the row numbered n (unique by construction). */
  key: (n: number) => Array<[column: string, literal: string]>
  columns: ZooColumn[]
  shapes: ZooShape[]
  /** Schema changes made by the app while clients stream: before write number `at`. */
  changes?: Array<{ at: number; sql: string; columns: ZooColumn[] }>
}

const intKey =
  (column = 'id') =>
  (n: number) =>
    [[column, String(n)]] as Array<[string, string]>
const title: ZooColumn = {
  name: 'title',
  value: (r) => nullable(r, (r) => text(r)),
}
const num: ZooColumn = {
  name: 'n',
  value: (r) => nullable(r, (r) => String(r.int(-1000, 1000))),
}

export function zooKinds(major: number): ZooKind[] {
  const kinds: ZooKind[] = [
    {
      name: 'int primary key',
      ddl: 'create table pk_int (id int primary key, title text, n int)',
      target: 'pk_int',
      key: intKey(),
      columns: [title, num],
      shapes: [{ table: 'pk_int' }],
    },
    {
      name: 'bigint primary key',
      ddl: 'create table pk_bigint (id bigint primary key, title text, n int)',
      target: 'pk_bigint',
      key: (n) => [['id', `${9_000_000_000_000 + n}`]],
      columns: [title, num],
      shapes: [{ table: 'pk_bigint' }],
    },
    {
      name: 'uuid primary key',
      ddl: 'create table pk_uuid (id uuid primary key, title text, n int)',
      target: 'pk_uuid',
      key: (n) => [['id', uuidOf(n)]],
      columns: [title, num],
      shapes: [{ table: 'pk_uuid' }],
    },
    {
      name: 'text primary key',
      ddl: 'create table pk_text (id text primary key, title text, n int)',
      target: 'pk_text',
      key: (n) => [['id', lit(`k/${n}'é`)]],
      columns: [title, num],
      shapes: [{ table: 'pk_text' }],
    },
    {
      name: 'composite primary key',
      ddl: 'create table pk_pair (a int, b text, n int, title text, primary key (a, b))',
      target: 'pk_pair',
      key: (n) => [
        ['a', String(n % 7)],
        ['b', lit(`b${n}`)],
      ],
      columns: [title, num],
      shapes: [{ table: 'pk_pair' }],
    },
    {
      name: 'no primary key',
      ddl: 'create table no_pk (k int, title text, n int)',
      target: 'no_pk',
      key: intKey('k'),
      columns: [title, num],
      shapes: [{ table: 'no_pk' }],
    },
    {
      name: 'stored generated column',
      ddl: `create table gen_stored (id int primary key, a int,
              b int generated always as (a * 2) stored, c text generated always as (upper(t)) stored,
              t text)`,
      target: 'gen_stored',
      key: intKey(),
      columns: [
        { name: 'a', value: (r) => nullable(r, (r) => String(r.int(0, 99))) },
        { name: 't', value: (r) => text(r) },
      ],
      // Before 18, generated columns are not replicated: the shape leaves them out.
      shapes: [
        major >= 18
          ? { table: 'gen_stored' }
          : { table: 'gen_stored', columns: ['id', 'a', 't'] },
      ],
    },
    {
      name: 'partitioned table, its root and a partition followed at once',
      ddl: `create table parted (id int, title text, n int, primary key (id)) partition by range (id);
            create table parted_low partition of parted for values from (0) to (1000);
            create table parted_high partition of parted for values from (1000) to (2000);
            create table parted_rest partition of parted default`,
      target: 'parted',
      // Spread over every partition; key updates move rows between partitions.
      key: (n) => [['id', String((n * 37) % 3000)]],
      columns: [title, num],
      shapes: [{ table: 'parted' }, { table: 'parted_low' }],
    },
    {
      name: 'enum, domain, array, jsonb, numeric, timestamptz, interval and bytea columns',
      ddl: `create type zoo_mood as enum ('happy', 'sad', 'so-so');
            create domain zoo_positive as int check (value > 0);
            create table typed (id int primary key, mood zoo_mood, pos zoo_positive,
              ints int[], texts text[], doc jsonb, amount numeric(12, 4), at timestamptz,
              span interval, raw bytea)`,
      target: 'typed',
      key: intKey(),
      columns: [
        {
          name: 'mood',
          value: (r) =>
            nullable(r, (r) => lit(r.pick(['happy', 'sad', 'so-so']))),
        },
        {
          name: 'pos',
          value: (r) => nullable(r, (r) => String(r.int(1, 1000))),
        },
        {
          name: 'ints',
          value: (r) =>
            nullable(
              r,
              (r) =>
                `'{${Array.from({ length: r.int(0, 4) }, () => (r.chance(0.2) ? 'NULL' : r.int(-9, 9))).join(',')}}'::int[]`,
            ),
        },
        {
          name: 'texts',
          value: (r) =>
            nullable(
              r,
              (r) =>
                `array[${Array.from({ length: r.int(1, 3) }, () => (r.chance(0.2) ? 'NULL' : text(r, 4))).join(',')}]::text[]`,
            ),
        },
        {
          name: 'doc',
          value: (r) =>
            nullable(r, (r) =>
              lit(
                JSON.stringify({
                  a: r.int(0, 9),
                  b: [true, null, r.pick(['x', 'ü', '"q"'])],
                  c: { d: r.next() },
                }),
              ),
            ),
        },
        {
          name: 'amount',
          value: (r) =>
            nullable(r, (r) => `${r.int(-99999, 99999)}.${r.int(0, 9999)}`),
        },
        {
          name: 'at',
          value: (r) =>
            nullable(
              r,
              (r) =>
                `'2026-0${r.int(1, 9)}-1${r.int(0, 9)} 0${r.int(0, 9)}:1${r.int(0, 9)}:2${r.int(0, 9)}.${r.int(0, 999999)}+0${r.int(0, 9)}'`,
            ),
        },
        {
          name: 'span',
          value: (r) =>
            nullable(
              r,
              (r) =>
                `'${r.int(0, 40)} days ${r.int(0, 23)}:${r.int(10, 59)}:0${r.int(0, 9)}'`,
            ),
        },
        {
          name: 'raw',
          value: (r) =>
            nullable(r, (r) => `'\\x${hex(r, r.int(0, 8))}'::bytea`),
        },
      ],
      shapes: [{ table: 'typed' }],
    },
    {
      name: 'values TOASTed out of line, and updates that leave them unchanged',
      ddl: 'create table toasty (id int primary key, small int, big text)',
      target: 'toasty',
      key: intKey(),
      columns: [
        { name: 'small', value: (r) => String(r.int(0, 1000)) },
        {
          name: 'big',
          value: (r) => (r.chance(0.5) ? bigText(r) : lit('big')),
        },
      ],
      shapes: [{ table: 'toasty' }],
    },
    {
      name: 'quoted mixed-case and non-ASCII names in another schema',
      ddl: `create schema "Zoo Schema";
            create table "Zoo Schema"."Tâble Ünï" ("Id" int primary key, "MixedCase" text, "naïve col" int)`,
      target: '"Zoo Schema"."Tâble Ünï"',
      key: intKey('"Id"'),
      columns: [
        { name: '"MixedCase"', value: (r) => text(r) },
        { name: '"naïve col"', value: (r) => String(r.int(0, 9)) },
      ],
      shapes: [{ table: '"Zoo Schema"."Tâble Ünï"' }],
    },
    {
      name: 'row level security enabled',
      ddl: `create table guarded (id int primary key, title text, n int);
            alter table guarded enable row level security;
            create policy nobody on guarded using (false)`,
      target: 'guarded',
      key: intKey(),
      columns: [title, num],
      shapes: [{ table: 'guarded' }],
    },
    {
      name: 'triggers that rewrite rows and write elsewhere',
      ddl: `create table audited (id int primary key, title text, n int, stamp text);
            create table audit_trail (at_id int, op text);
            create function zoo_stamp() returns trigger language plpgsql as $$
              begin new.stamp := tg_op || ':' || coalesce(new.n, 0); return new; end $$;
            create function zoo_trail() returns trigger language plpgsql as $$
              begin insert into audit_trail values (coalesce(new.id, old.id), tg_op); return null; end $$;
            create trigger stamp before insert or update on audited
              for each row execute function zoo_stamp();
            create trigger trail after insert or update or delete on audited
              for each row execute function zoo_trail()`,
      target: 'audited',
      key: intKey(),
      columns: [title, num],
      shapes: [{ table: 'audited' }],
    },
    {
      name: 'columns added, renamed and dropped while clients stream',
      ddl: 'create table evolving (id int primary key, a text, n int)',
      target: 'evolving',
      key: intKey(),
      columns: [{ name: 'a', value: (r) => text(r) }, num],
      shapes: [{ table: 'evolving' }],
      changes: [
        {
          at: 12,
          sql: 'alter table evolving add column extra int default 7',
          columns: [
            { name: 'a', value: (r) => text(r) },
            num,
            { name: 'extra', value: (r) => String(r.int(0, 9)) },
          ],
        },
        {
          at: 24,
          sql: 'alter table evolving rename column a to renamed',
          columns: [
            { name: 'renamed', value: (r) => text(r) },
            num,
            { name: 'extra', value: (r) => String(r.int(0, 9)) },
          ],
        },
        {
          at: 36,
          sql: 'alter table evolving drop column n',
          columns: [
            { name: 'renamed', value: (r) => text(r) },
            { name: 'extra', value: (r) => String(r.int(0, 9)) },
          ],
        },
      ],
    },
  ]
  return kinds
}

/** Tables Postgres cannot replicate as they are: refused with the reason, left as they were. */
export function refusedKinds(major: number): Array<{
  name: string
  ddl: string
  table: string
  status: number
  writes: string
}> {
  const refused = [
    {
      name: 'an unlogged table',
      ddl: 'create unlogged table scratch (id int primary key, n int)',
      table: 'scratch',
      status: 400,
      writes:
        'insert into scratch values (1, 1); update scratch set n = 2; delete from scratch; truncate scratch',
    },
    {
      name: 'a view',
      ddl: 'create table seen (id int primary key, n int); create view seen_view as select * from seen',
      table: 'seen_view',
      status: 400,
      writes:
        'insert into seen values (1, 1); update seen set n = 2; delete from seen; truncate seen',
    },
  ]
  if (major >= 18)
    refused.push({
      name: 'a table with a virtual generated column',
      ddl: 'create table virt (id int primary key, a int, v int generated always as (a * 2) virtual)',
      table: 'virt',
      status: 503,
      writes:
        'insert into virt (id, a) values (1, 1); update virt set a = 2; delete from virt; truncate virt',
    })
  return refused
}
