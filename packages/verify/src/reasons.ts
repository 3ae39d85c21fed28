/**
 * The reason labels a receipt can carry (docs/checks.md), each in plain words for the person
 * who relies on the receipt: an escrow officer reads "the notary's seal could not be checked",
 * not `seal_unverifiable`. The labels are stable, so a fixed table is enough; a label this table
 * does not know (a newer service) is shown as it is rather than hidden.
 */
const REASON_TEXT: Readonly<Record<string, string>> = {
  unknown_policy_profile: 'The request named a policy this service does not know, so no check ran.',
  // doc.hash
  document_not_provided:
    'The document itself was not supplied, so its fingerprint is only what the caller declared.',
  doc_hash_mismatch: 'The supplied document does not match the fingerprint declared for it.',
  document_not_pdf: 'The supplied document is not a complete PDF file.',
  // doc.signatures
  document_unreadable: 'The supplied document could not be read as a PDF to check its signatures.',
  document_unsigned: 'The document carries no digital signature of the notary.',
  document_signature_invalid: 'A digital signature in the document is not valid.',
  document_modified_after_signing: 'The document was changed after it was digitally signed.',
  signer_certificate_expired:
    "A signer's certificate was not valid (expired or not yet valid) when the document was signed.",
  signer_certificate_revoked:
    "A signer's certificate was revoked by its issuer, and nothing proves the document was signed before that.",
  signer_not_trusted:
    "A signer's certificate is not issued by an authority this customer trusts for notaries.",
  signer_not_registered_notary: "No digital signature in the document is the registered notary's.",
  signing_time_outside_commission:
    "The notary signed the document after the notary's commission ended.",
  signer_revocation_unknown:
    "Whether a signer's certificate was revoked could not be checked: its issuer's revocation list could not be had.",
  // ron.seal, ron.commission
  notary_not_registered:
    'The notary is not registered with this service, so the seal and commission cannot be confirmed.',
  seal_unverifiable:
    "The notary's seal is in a form that cannot be checked (no seal scheme was given).",
  seal_invalid: "The notary's seal is not valid: its signature does not verify.",
  seal_claim_mismatch:
    "The notary's seal is genuine but does not match this request: it names another notary, state or document.",
  seal_issued_in_future: "The notary's seal is dated in the future.",
  commission_record_invalid: "The notary's commission record has no valid expiry date.",
  commission_state_mismatch:
    "The notary's commission is for a different state than the one stated.",
  commission_expired: "The notary's commission had expired.",
  // property.jurisdiction
  unknown_state_code:
    'A state given for the property or the commission is not a valid US state code.',
  interstate_notarization: 'The notary is commissioned in a different state from the property.',
  // ocr.consistency
  ocr_mismatch:
    "The notary name or commission number read from the document does not match the notary's registration.",
  // registry.screening
  screening_subject_missing:
    'No name was given for the sanctions and watch-list screening this policy requires.',
  screening_subject_unusable: 'The name given for screening has no letters or digits to compare.',
  screening_unavailable: 'The sanctions and watch-list screening could not be carried out.',
  screening_strong_match:
    'The screened name closely matches an entry on a sanctions or watch list.',
  screening_possible_match:
    'The screened name resembles an entry on a sanctions or watch list: a person should review it.',
  // request.timestamp
  timestamp_invalid: 'The request time could not be read.',
  timestamp_in_future: 'The request is dated in the future.',
  timestamp_stale: 'The request is dated more than 30 days before it was checked.',
  // CI checks
  malformed_commit_id: 'The commit identifier is not a valid one.',
  malformed_repository: 'The repository name is not a valid one.',
  repository_not_allowed: 'The repository is not one this customer allows.',
  repository_unclaimed:
    'The run is proven, but nothing ties its repository to the customer who asked for the receipt.',
  untrusted_trigger_event: 'The workflow was started by an event that is not trusted.',
  identity_unverified: 'Who ran the workflow is self-reported, not proven.',
  identity_invalid: "The workflow's identity token was refused.",
  identity_mismatch: "The workflow's identity token does not match the request.",
  identity_replayed:
    "The workflow's identity token was already used for another request: a token proves one run once.",
  runner_unverified: 'Nothing proves which machines ran the workflow.',
  self_hosted_runner: 'The workflow ran on self-hosted machines.',
  default_branch_unverified: 'It is not proven that the workflow came from the main branch.',
  not_default_branch: 'The workflow came from a branch other than the main branch.',
};

// a Map, so a label such as `constructor` is not looked up on Object's prototype
const REASONS = new Map(Object.entries(REASON_TEXT));

/** Every reason label this verifier explains (a test checks it against the service's catalogue). */
export const KNOWN_REASONS: readonly string[] = Object.keys(REASON_TEXT);

/** `label` in plain words; a label this verifier does not know is returned as it is. */
export function reasonText(label: string): string {
  return REASONS.get(label) ?? label;
}
