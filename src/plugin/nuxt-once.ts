/**
 * Print-once across plugin instances (nuxt.ts). A Nuxt build runs our plugin in Vite's client and
 * server builds and in Nitro's server build, each an object of its own that would print the tree's
 * warnings; `nuxi dev` runs Vite's dev server and Nitro's Rollup in watch mode, which builds its
 * server bundle again on every change and would print them again each time. So the instances of one
 * Nuxt process share one record of what was shown: a warning prints once per build and once per dev
 * session. A problem that is fixed is forgotten (the instance that rebuilds no longer reports it), so
 * it prints again if it comes back, as in a plain Vite dev server.
 */

type Context = { warn: (message: string) => void };
// `this: any`: each host's context type differs; only `warn` is touched here.
type Handler = (this: any, ...args: any[]) => unknown;
type Hook = Handler | { handler: Handler; [key: string]: unknown };
type LoosePlugin = { name: string; load?: Hook; buildStart?: Hook; buildEnd?: Hook; [hook: string]: unknown };

const RESOLVED_PREFIX = '\0virtual:agent-scorers';

/** `hook` with its handler replaced by `wrap(original)`, filters and order kept. */
function around(hook: Hook | undefined, wrap: (original: Handler) => Handler): Hook {
  const original: Handler = hook === undefined ? () => undefined : typeof hook === 'function' ? hook : hook.handler;
  return typeof hook === 'object' ? { ...hook, handler: wrap(original) } : wrap(original);
}

/**
 * The host's context with `warn` replaced. A proxy, not a copy: Rolldown's and Vite's contexts keep
 * private state, so every other method is called on the context itself.
 */
function withWarn<T extends object>(ctx: T, warn: (message: string) => void): T {
  return new Proxy(ctx, {
    get(target, key) {
      if (key === 'warn') return warn;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export function createPrintOnce() {
  const shown = new Set<string>();
  return {
    /**
     * `plugin` printing through the shared record. `rebuilds`: the instance builds again and again in
     * one session (Nitro's dev bundle); each of its builds says which of its warnings still hold.
     */
    wrap<P extends LoosePlugin>(plugin: P, { rebuilds = false }: { rebuilds?: boolean } = {}): P {
      /** What this instance's current and previous builds tried to print. */
      let attempted = new Set<string>();
      let previous = new Set<string>();
      let loaded = false;
      const wrapped: LoosePlugin = {
        ...plugin,
        load: around(plugin.load, (original) =>
          function (this: Context, id: string, ...rest: unknown[]) {
            if (typeof id === 'string' && id.startsWith(RESOLVED_PREFIX)) loaded = true;
            const warn = (message: string) => {
              attempted.add(message);
              if (shown.has(message)) return;
              shown.add(message);
              this.warn(message);
            };
            return original.call(withWarn(this, warn), id, ...rest);
          },
        ),
      };
      if (rebuilds) {
        wrapped.buildStart = around(plugin.buildStart, (original) =>
          function (this: Context, ...args: unknown[]) {
            attempted = new Set();
            loaded = false;
            return original.apply(this, args);
          },
        );
        wrapped.buildEnd = around(plugin.buildEnd, (original) =>
          function (this: Context, error?: unknown, ...rest: unknown[]) {
            // A build that served our modules, succeeded and reported says what still holds: the rest
            // was fixed. A rebuild after Nitro's `rollup:reload` can load our modules and report
            // nothing at all (measured on Node 26): that says nothing about what was fixed, and
            // forgetting there printed every warning again on the next rebuild.
            if (!error && loaded && attempted.size > 0) {
              for (const message of previous) if (!attempted.has(message)) shown.delete(message);
              previous = attempted;
            }
            return original.call(this, error, ...rest);
          },
        );
      }
      return wrapped as P;
    },
  };
}

/**
 * Rollup names a module that failed to load by its id (`Could not load \0virtual:agent-scorers`),
 * and Nitro prints that message as it is, with the NUL byte. The error passes through `buildEnd`
 * before it reaches the host's printer: there it gets the id a user wrote.
 */
export function readableIds<P extends LoosePlugin>(plugin: P): P {
  return {
    ...plugin,
    buildEnd: around(plugin.buildEnd, (original) =>
      function (this: Context, error?: unknown, ...rest: unknown[]) {
        if (error instanceof Error) error.message = error.message.replaceAll(RESOLVED_PREFIX, RESOLVED_PREFIX.slice(1));
        return original.call(this, error, ...rest);
      },
    ),
  };
}
