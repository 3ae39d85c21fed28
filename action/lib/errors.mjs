/**
 * Why no receipt could be obtained (bad input, a rejected request, an unreachable service).
 * Its message is printed as the step's error annotation, so it must never contain the API key.
 */
export class ActionError extends Error {
  name = 'ActionError';
}
