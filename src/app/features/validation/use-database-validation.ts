// The reusable validation routine (spec §2, §4) for the public page, the setup form and the
// wizard: result, isValidating, error, validate(url) and reset().
import { useEffect, useState, useSyncExternalStore } from 'react'
import { createValidationController } from './validation-controller.ts'
import type { FetchLike } from './validation-request.ts'

export function useDatabaseValidation(fetchFn?: FetchLike) {
  const [controller] = useState(() => createValidationController(fetchFn))
  const state = useSyncExternalStore(controller.subscribe, controller.getState)
  // Leaving the page drops an answer nobody will read.
  useEffect(() => controller.reset, [controller])
  return { ...state, validate: controller.validate, reset: controller.reset }
}
