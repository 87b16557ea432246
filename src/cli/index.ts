// The CLI's entry for a process: the command line in, text out, the exit code answered
// (main.ts does the rest). Bundled as dist/server/cli.js; process.ts runs it from source.
import { run } from './main.ts'

const stream = (s: NodeJS.WriteStream) => ({
  write: (text: string) => void s.write(text),
})

export const main = (argv: string[]): Promise<number> =>
  run(argv, {
    out: stream(process.stdout),
    err: stream(process.stderr),
    env: process.env,
  })
