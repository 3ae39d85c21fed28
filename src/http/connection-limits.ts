import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Each connection holds a file descriptor until it closes: without a cap, idle sockets opened
 * faster than CONNECTION_TIMEOUT_MS closes them exhaust the process's file limit, and then no one
 * is served (and the store cannot open a file). `max` bounds them all (Node drops a connection
 * over it at once); `perAddress` bounds those of one peer address, so one client cannot take
 * every slot. The peer is the socket's (a proxy in front is one address for all its clients).
 */
export function limitConnections(server: Server, limits: { max: number; perAddress: number }) {
  server.maxConnections = limits.max;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= limits.perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
