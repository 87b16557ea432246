// The REST API's JSON calls whose bodies have schemas, each declared once: its method, its path
// (api-routes.ts, or the module that owns it) and the schemas of what it takes and answers.
// The app's API modules call through these and the server's handlers parse their requests with
// them; tests/integration/api-routes.test.ts checks the server routes each method and path.
import type { z } from 'zod'
import {
  approveCliLoginRequestSchema,
  approveCliLoginResponseSchema,
  cliLoginApprovePath,
  cliLoginPath,
  cliLoginSchema,
} from './cli-logins.ts'
import {
  alertSettingsResponseSchema,
  alertSettingsSchema,
  saveAlertSettingsSchema,
  createAlertDestinationResponseSchema,
  createAlertDestinationSchema,
  deleteAlertDestinationResponseSchema,
  testAlertResponseSchema,
} from './alerts.ts'
import {
  alertDestinationPath,
  alertDestinationsPath,
  alertSettingsPath,
  API_MOUNTS,
  liveShapeMessagesPath,
  liveShapeTimelinePath,
  liveShapePath,
  setupFormPath,
  setupFormsPath,
  sourcePath,
  sourcePreviousSecretPath,
  sourceRestartPath,
  sourceRotateSecretPath,
  testAlertPath,
} from './api-routes.ts'
import {
  apiTokenListSchema,
  apiTokenPath,
  apiTokensPath,
  createApiTokenRequestSchema,
  createApiTokenResponseSchema,
  revokeApiTokenResponseSchema,
} from './api-tokens.ts'
import {
  CLAIM_PATH,
  claimableSourcePath,
  claimableSourceSchema,
  claimRequestSchema,
  claimResponseSchema,
} from './claimable-sources.ts'
import {
  createSetupFormRequestSchema,
  createSetupFormResponseSchema,
  deleteSetupFormResponseSchema,
  publicSetupFormPath,
  publicSetupFormSchema,
  setupFormUsePath,
  useSetupFormRequestSchema,
  useSetupFormResponseSchema,
} from './setup-forms.ts'
import {
  createSourceRequestSchema,
  createSourceResponseSchema,
  restartSourceRequestSchema,
  rotateSecretResponseSchema,
  shapeDeletedResponseSchema,
  sourceChangeResponseSchema,
  updateSourceRequestSchema,
  updateSourceResponseSchema,
} from './sources.ts'
import {
  shapeMessagesResponseSchema,
  shapeTimelineResponseSchema,
} from './shape-messages.ts'

type ApiCall = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** The path, given the ids it names. */
  path: (...ids: string[]) => string
  /** What the body must be; absent when the call sends none. */
  request?: z.ZodType
  /** What a successful answer is. */
  response: z.ZodType
}

export const sourceCalls = {
  create: {
    method: 'PUT',
    path: () => API_MOUNTS.sources,
    request: createSourceRequestSchema,
    response: createSourceResponseSchema,
  },
  /** Name, project and environment. */
  update: {
    method: 'PATCH',
    path: sourcePath,
    request: updateSourceRequestSchema,
    response: updateSourceResponseSchema,
  },
  remove: {
    method: 'DELETE',
    path: sourcePath,
    response: sourceChangeResponseSchema,
  },
  restart: {
    method: 'POST',
    path: sourceRestartPath,
    request: restartSourceRequestSchema,
    response: sourceChangeResponseSchema,
  },
  rotateSecret: {
    method: 'POST',
    path: sourceRotateSecretPath,
    response: rotateSecretResponseSchema,
  },
  endSecretGrace: {
    method: 'DELETE',
    path: sourcePreviousSecretPath,
    response: sourceChangeResponseSchema,
  },
  deleteLiveShape: {
    method: 'DELETE',
    path: liveShapePath,
    response: shapeDeletedResponseSchema,
  },
  /** The Shape Inspector's page of messages; the caller adds `?offset=&limit=`. */
  shapeMessages: {
    method: 'GET',
    path: liveShapeMessagesPath,
    response: shapeMessagesResponseSchema,
  },
  /** The Shape Inspector's timeline of a live shape. */
  shapeTimeline: {
    method: 'GET',
    path: liveShapeTimelinePath,
    response: shapeTimelineResponseSchema,
  },
} as const satisfies Record<string, ApiCall>

export const setupFormCalls = {
  create: {
    method: 'POST',
    path: setupFormsPath,
    request: createSetupFormRequestSchema,
    response: createSetupFormResponseSchema,
  },
  remove: {
    method: 'DELETE',
    path: setupFormPath,
    response: deleteSetupFormResponseSchema,
  },
  /** The public setup page's form, by its id alone. */
  read: {
    method: 'GET',
    path: publicSetupFormPath,
    response: publicSetupFormSchema,
  },
  use: {
    method: 'POST',
    path: setupFormUsePath,
    request: useSetupFormRequestSchema,
    response: useSetupFormResponseSchema,
  },
} as const satisfies Record<string, ApiCall>

export const apiTokenCalls = {
  create: {
    method: 'POST',
    path: apiTokensPath,
    request: createApiTokenRequestSchema,
    response: createApiTokenResponseSchema,
  },
  /** Read over REST, not synced (docs/architecture.md, Team API tokens). */
  list: {
    method: 'GET',
    path: apiTokensPath,
    response: apiTokenListSchema,
  },
  revoke: {
    method: 'DELETE',
    path: apiTokenPath,
    response: revokeApiTokenResponseSchema,
  },
} as const satisfies Record<string, ApiCall>

/** The dashboard's side of `sluice auth login` (cli-logins.ts). */
export const cliLoginCalls = {
  read: { method: 'GET', path: cliLoginPath, response: cliLoginSchema },
  approve: {
    method: 'POST',
    path: cliLoginApprovePath,
    request: approveCliLoginRequestSchema,
    response: approveCliLoginResponseSchema,
  },
} as const satisfies Record<string, ApiCall>

export const alertCalls = {
  createDestination: {
    method: 'POST',
    path: alertDestinationsPath,
    request: createAlertDestinationSchema,
    response: createAlertDestinationResponseSchema,
  },
  deleteDestination: {
    method: 'DELETE',
    path: alertDestinationPath,
    response: deleteAlertDestinationResponseSchema,
  },
  sendTest: {
    method: 'POST',
    path: testAlertPath,
    response: testAlertResponseSchema,
  },
  readSettings: {
    method: 'GET',
    path: alertSettingsPath,
    response: alertSettingsResponseSchema,
  },
  saveSettings: {
    method: 'PUT',
    path: alertSettingsPath,
    request: saveAlertSettingsSchema,
    response: alertSettingsSchema,
  },
} as const satisfies Record<string, ApiCall>

export const claimCalls = {
  read: {
    method: 'GET',
    path: claimableSourcePath,
    response: claimableSourceSchema,
  },
  claim: {
    method: 'POST',
    path: () => CLAIM_PATH,
    request: claimRequestSchema,
    response: claimResponseSchema,
  },
} as const satisfies Record<string, ApiCall>
