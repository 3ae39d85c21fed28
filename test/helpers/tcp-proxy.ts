import net from 'node:net';

/** A TCP proxy in front of PostgreSQL that a test can cut and restore: a real outage. */
export class TcpProxy {
  private server: net.Server | undefined;
  /** Both ends of every open connection. */
  protected readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      this.relay(client, upstream);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Moves the bytes of one connection both ways. */
  protected relay(client: net.Socket, upstream: net.Socket): void {
    client.pipe(upstream).pipe(client);
  }

  /** Drops every open connection and refuses new ones. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}
