import net from 'node:net';

/**
 * How a proxy fails, until it is restored: `refuse` drops every connection and stops listening (a client gets
 * ECONNREFUSED); `hang` drops every connection and then accepts new ones but never answers; `silence` keeps the live
 * connections open but lets nothing through any more, and hangs new ones: a host lost behind a firewall that drops
 * packets, which nobody resets.
 */
export type CutMode = 'refuse' | 'hang' | 'silence';

/**
 * Where `silenceAt` cuts a connection: `before` the statement reaches the service, or `after` it, its answer lost.
 */
export type StatementCut = 'before' | 'after';

/**
 * A TCP relay on a random loopback port in front of a real service (PostgreSQL, Redis), so that a test can take the
 * service away from one app and give it back without touching the service itself, which other suites share.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  type Relay = { client: net.Socket; upstream: net.Socket; silent: boolean };
  const sockets = new Set<net.Socket>();
  const relays = new Set<Relay>();
  let mode: CutMode | 'open' = 'open';
  let held = 0;
  /** The statements `silenceAt` waits for, each cutting the first connection that sends it. */
  const traps: Array<{ text: string; when: StatementCut; sprung(): void }> = [];

  /** Nothing more goes either way, and the connection stays open: a host lost behind a firewall. */
  const silence = (relay: Relay) => {
    relay.silent = true;
    relay.client.pause();
    relay.upstream.pause();
  };

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
    const relay: Relay = { client, upstream, silent: false };
    relays.add(relay);
    const end = () => {
      relays.delete(relay);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('data', (chunk: Buffer) => {
      if (relay.silent) return;
      const trap = traps.find(({ text }) => chunk.includes(text));
      if (!trap) {
        upstream.write(chunk);
        return;
      }
      traps.splice(traps.indexOf(trap), 1);
      if (trap.when === 'after') upstream.write(chunk);
      silence(relay);
      trap.sprung();
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!relay.silent) client.write(chunk);
    });
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
      for (const relay of relays) silence(relay);
    },
    /**
     * Silences the first connection whose client sends `text` from now on (a statement's SQL, as it travels in
     * PostgreSQL's protocol, so text that no parameter holds), at that statement: before it reaches the service, or
     * after, its answer lost. The other connections go on. Resolves once a connection was cut.
     */
    silenceAt(text: string, when: StatementCut): Promise<void> {
      return new Promise((sprung) => traps.push({ text, when, sprung }));
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
