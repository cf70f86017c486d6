/**
 * Who may use the dev inspector, and how much at once. The inspector runs user code on request
 * (function-form configs, scorers, and through them paid judge calls on the developer's key), so a
 * request must come from this machine (unless the user allows more) and from the inspector's own
 * page: never from another site, nor from another local origin such as a second dev server.
 *
 * Vite's host check and CORS run before our middleware (they are installed before plugins'
 * `configureServer`), but its CORS default lets any localhost origin through and its host check
 * can be opened with `server.allowedHosts: true`: neither says who is asking. With the host check
 * open, a page on another site can rebind its own name to 127.0.0.1 and then call us as its own
 * origin (Host, Origin and Fetch Metadata all agree), so the Host itself must name this machine.
 */
import type { IncomingMessage } from 'node:http';

/** How to let other machines in: the one line a refused remote client reads. */
export const REMOTE_HINT = 'To allow other machines, set inspector: { remote: true } in the agent-scorers plugin options.';

/** 127.0.0.0/8, ::1 and IPv4-mapped 127.x: the addresses of this machine's own loopback. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a) || /^::ffff:127\.\d+\.\d+\.\d+$/.test(a);
}

/**
 * A loopback peer, or a peer whose address is the socket's own local address: a connection from
 * this machine to one of its own network addresses (`server.host: '192.168.1.5'` has no loopback
 * to reach). Another machine cannot complete a TCP handshake with our own address as its source.
 */
function fromThisMachine(req: IncomingMessage): boolean {
  const peer = req.socket.remoteAddress;
  return isLoopback(peer) || (peer !== undefined && peer === req.socket.localAddress);
}

/** The host name of a Host header (`name:port`, `[::1]:port`), lower case, without a trailing dot. */
export function hostName(header: string): string {
  const bracketed = /^\[([^\]]*)\]/.exec(header);
  const name = bracketed ? bracketed[1] : header.replace(/:\d*$/, '');
  return name.toLowerCase().replace(/\.$/, '');
}

/** `localhost`, a `.localhost` name (browsers resolve them to loopback) or a loopback address. */
export function isLoopbackHost(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || isLoopback(name);
}

/**
 * Why `req` is refused, or null. Who may call is decided by the socket's peer address, never by a
 * header: a Host header is the client's to choose (an IP literal, or any name once `allowedHosts:
 * true`). The Host is checked as well, against DNS rebinding: unless `remote`, it must be a loopback
 * name or address or a host this server listens on (`isOwnHost`).
 */
export function refusal(req: IncomingMessage, remote: boolean, isOwnHost: (name: string) => boolean = () => false): string | null {
  if (!remote && !fromThisMachine(req)) {
    return `The agent-scorers inspector answers only this machine. ${REMOTE_HINT}`;
  }
  const host = req.headers.host;
  if (!remote && host !== undefined) {
    const name = hostName(host);
    if (!isLoopbackHost(name) && !isOwnHost(name)) {
      return (
        `Requests for host ${JSON.stringify(name)} are refused: it is neither this machine's loopback nor an address this server listens on, ` +
        `which is how a DNS-rebinding page on another site would arrive. To use the inspector under this name, set inspector: { remote: true } in the agent-scorers plugin options.`
      );
    }
  }
  // Fetch Metadata: a browser marks a request made by another site's page, or by a page of another
  // origin on the same site (another localhost port), even a plain GET that carries no Origin.
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') {
    return `Requests from another origin are refused (Sec-Fetch-Site: ${site}); open the inspector from its own URL.`;
  }
  // Older browsers send no Fetch Metadata, but a cross-origin POST still carries an Origin. `null`
  // (a sandboxed frame, a file: page, a redirect) is never the inspector's own page.
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let host: string | null = null;
    try {
      const url = new URL(origin);
      if (url.protocol === 'http:' || url.protocol === 'https:') host = url.host;
    } catch {
      // not a URL: refused below
    }
    if (host === null || host !== req.headers.host) return `Requests from ${JSON.stringify(origin).slice(1, -1)} are refused.`;
  }
  return null;
}

export interface Limiter {
  /**
   * Runs `task` when one of the slots is free; null, without running it, when every slot is busy
   * and the queue is full. `gone` tells a queued task that its client left: it is dropped unrun.
   */
  run<T>(task: () => Promise<T>, gone?: (drop: () => void) => void): Promise<T | undefined> | null;
}

/** At most `concurrency` tasks at once, `queue` more waiting in order, the rest refused. */
export function createLimiter(concurrency: number, queue: number): Limiter {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    running--;
    const next = waiting.shift();
    if (next) next();
  };
  return {
    run(task, gone) {
      if (running >= concurrency && waiting.length >= queue) return null;
      return new Promise((resolve, reject) => {
        const start = () => {
          running++;
          task().then(resolve, reject).finally(release);
        };
        if (running < concurrency) return start();
        waiting.push(start);
        gone?.(() => {
          const at = waiting.indexOf(start);
          if (at === -1) return;
          waiting.splice(at, 1);
          resolve(undefined);
        });
      });
    },
  };
}
