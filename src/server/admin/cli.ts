// `npm run admin -- <command>`: the admin tool (run.ts) on this process's arguments,
// environment and output, exiting with its code.
import { readEnv } from '../platform/env.ts'
import { runAdmin } from './run.ts'

runAdmin(process.argv.slice(2), {
  env: readEnv,
  // Read only for the secrets a command takes from it (run.ts); env.ts parses the rest.
  vars: process.env,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
