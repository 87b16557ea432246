// The reusable validation routine for the public page, the wizard and the
// providers' pages: result, isValidating, error, validate(url), reset(). useDatabaseValidation
// asks the URL endpoint; the second provider passes its own request to useValidationRoutine.
import { useEffect, useState, useSyncExternalStore } from 'react'
import {
  createRequestController,
  createValidationController,
  type ValidationController,
  type ValidationRequest,
} from './validation-controller.ts'
import type { FetchLike, ValidationOutcome } from './validation-request.ts'

function useController<O extends ValidationOutcome>(
  create: () => ValidationController<O>,
) {
  const [controller] = useState(create)
  const state = useSyncExternalStore(controller.subscribe, controller.getState)
  // Leaving the page drops an answer nobody will read.
  useEffect(() => controller.reset, [controller])
  return { ...state, validate: controller.validate, reset: controller.reset }
}

export function useDatabaseValidation(fetchFn?: FetchLike) {
  return useController(() => createValidationController(fetchFn))
}

export function useValidationRoutine<O extends ValidationOutcome>(
  request: ValidationRequest<O>,
) {
  return useController(() => createRequestController(request))
}
