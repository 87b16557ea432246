// `tsx src/cli/process.ts …`: the CLI from its sources, in a checkout not built yet.
import { main } from './index.ts'

process.exitCode = await main(process.argv.slice(2))
