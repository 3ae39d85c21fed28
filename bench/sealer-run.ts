/**
 * The name of bench:verify's `sealer` run, which bench/goals.ts reads: POST /verify on a fresh
 * embedded service that seals every 5 s only (SEAL_BATCH_MS=0), beside the store's main run with
 * the default sealer (a seal whenever entries wait, every 250 ms). Their ratio is what sealing as
 * entries arrive costs the issuances that share the embedded store's one connection: a seal's
 * transaction held that connection across event-loop round trips, 170 ms a seal on average under
 * load, until a one-page seal became one statement (src/storage/log.ts).
 */
export const SEALING_EVERY_5S = 'POST /verify, embedded, sealing every 5 s only (SEAL_BATCH_MS=0)';
