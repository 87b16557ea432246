// The wizard's own words when a validation call failed without a message of the server's.
import { VALIDATION_FAILED_FALLBACK } from '../validation/validation-request.ts'

export const wizardError = (error: string): string =>
  error === VALIDATION_FAILED_FALLBACK ? 'Failed to validate connection' : error
