/** How far a caller- or notary-supplied time may run ahead of the service clock (5 minutes). */
export const ALLOWED_CLOCK_SKEW_MS = 5 * 60 * 1000;
