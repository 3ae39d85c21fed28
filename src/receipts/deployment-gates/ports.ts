import type { NewDeploymentGate } from '../ports.js';
import type { GateDecision } from './policy.js';

/**
 * What the deployment gate is given besides its store (`DeploymentGateStore` in
 * `src/receipts/ports.ts`): where a decision goes, and where its story is told. The GitHub App
 * implements both (`src/github/gate-runner.ts`).
 */

/** A decision that is final: approved or rejected, never pending. */
export type FinalDecision = Exclude<GateDecision, { state: 'pending' }>;

/** The gate being answered, as opened. */
export type OpenGate = NewDeploymentGate;

/** Answers one gated deployment where it was asked (GitHub's deployment protection rule). */
export interface GateAnswerer {
  /** Sends the decision; throws when it is not accepted (the gate is then retried later). */
  answer(gate: OpenGate, decision: FinalDecision): Promise<void>;
  /** Shows the recorded decision (GitHub's check run); never throws, the gate is decided. */
  show(gate: OpenGate, decision: FinalDecision): Promise<void>;
}

/** Where the gate's steps are logged (pino's shape: an object, then the words). */
export interface GateLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
