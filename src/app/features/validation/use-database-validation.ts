// The reusable validation routine (spec §2, §4) for the public page and the wizard (and the
// providers' setup forms once they ship): result, isValidating, error, validate(url), reset().
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
