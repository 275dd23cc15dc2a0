import net from 'node:net';

/**
 * How a proxy fails, until it is restored: `refuse` drops every connection and stops listening (a client gets
 * ECONNREFUSED); `hang` drops every connection and then accepts new ones but never answers; `silence` keeps the live
 * connections open but lets nothing through any more, and hangs new ones: a host lost behind a firewall that drops
 * packets, which nobody resets.
 */
export type CutMode = 'refuse' | 'hang' | 'silence';

/**
 * A TCP relay on a random loopback port in front of a real service (PostgreSQL, Redis), so that a test can take the
 * service away from one app and give it back without touching the service itself, which other suites share.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  const relays = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let mode: CutMode | 'open' = 'open';
  let held = 0;

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const accept = (client: net.Socket) => {
    track(client);
    if (mode !== 'open') {
      held++;
      return;
    }
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    const relay = { client, upstream };
    relays.add(relay);
    const end = () => {
      relays.delete(relay);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.pipe(upstream).pipe(client);
  };

  let server = net.createServer(accept);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const listening = () => server.listening;

  /** Every connection through the proxy ends at once, as when the service or the network fails. */
  const dropAll = () => {
    for (const socket of sockets) socket.resetAndDestroy();
  };
  const stopListening = () => {
    // A server's close calls back only once its connections are gone.
    const closed = new Promise((resolve) => server.close(resolve));
    dropAll();
    return closed;
  };

  return {
    port,
    /** How many connections a black hole has taken so far. */
    held: () => held,
    /** The service's URL with the proxy's address in place of the service's. */
    urlFor(serviceUrl: string): string {
      const url = new URL(serviceUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async cut(how: CutMode) {
      mode = how;
      if (how === 'refuse') return stopListening();
      if (how === 'hang') return dropAll();
      for (const { client, upstream } of relays) {
        client.unpipe(upstream).pause();
        upstream.unpipe(client).pause();
      }
    },
    /**
     * Relays new connections again, on the same port. Connections the cut took stay silent, as they would on a real
     * network: the client has to give up on them by itself.
     */
    async restore() {
      mode = 'open';
      relays.clear();
      if (!listening()) {
        server = net.createServer(accept);
        await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      }
    },
    async close() {
      if (listening()) await stopListening();
      dropAll();
    },
  };
}

export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;
