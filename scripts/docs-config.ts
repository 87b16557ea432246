// `npm run docs:config`: writes docs/configuration.md from the variables' descriptions in code.
import { writeFileSync } from 'node:fs'
import {
  CONFIGURATION_DOC,
  configurationMarkdown,
} from './docs/configuration.ts'

writeFileSync(CONFIGURATION_DOC, await configurationMarkdown())
console.log(`wrote ${CONFIGURATION_DOC}`)
