/** A PDF whose revisions or objects cannot be read; the readers turn it into a typed failure. */
export class Unreadable extends Error {
  override name = 'Unreadable';
}
