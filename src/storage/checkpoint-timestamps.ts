import type { Knex } from 'knex';
import type { CheckpointTimestamp, TimestampStore } from '../anchoring/timestamps.js';

interface Row {
  tree_size: string | number;
  tsa_url: string;
  tsa_name: string;
  token: Buffer;
  gen_time: Date | string;
}

/** Checked RFC 3161 tokens over checkpoints (`checkpoint_timestamps`), one per authority. */
export class CheckpointTimestampRepository implements TimestampStore {
  constructor(private readonly knex: Knex) {}

  async addTimestamp(t: CheckpointTimestamp): Promise<void> {
    await this.knex('checkpoint_timestamps')
      .insert({
        tree_size: t.treeSize,
        tsa_url: t.tsaUrl,
        tsa_name: t.tsaName,
        token: t.token,
        gen_time: t.genTime,
      })
      .onConflict(['tree_size', 'tsa_url'])
      .ignore();
  }

  async timestampsAt(treeSize: number): Promise<CheckpointTimestamp[]> {
    const rows = (await this.knex('checkpoint_timestamps')
      .where({ tree_size: treeSize })
      .orderBy([{ column: 'gen_time' }, { column: 'tsa_url' }])
      .select('tree_size', 'tsa_url', 'tsa_name', 'token', 'gen_time')) as Row[];
    return rows.map((r) => ({
      treeSize: Number(r.tree_size),
      tsaUrl: r.tsa_url,
      tsaName: r.tsa_name,
      token: Buffer.from(r.token),
      genTime: new Date(r.gen_time),
    }));
  }
}
