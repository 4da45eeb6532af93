/**
 * D1 statements counted for `npm run bench`: with BENCH_ROUTES on (development builds only;
 * production configuration refuses it), the Worker's D1 binding is wrapped so each statement
 * run, alone or in a batch, is counted as a read or a write, and `GET /__bench/d1` answers the
 * isolate's totals. The bench divides the difference over a sustained run by its calls: how
 * many D1 queries and writes one hosted-API call costs (issue #17's goal: at most 0.02 writes).
 */

export interface D1Counts {
  /** Statements that only read (SELECT, and anything not recognised as a write). */
  reads: number;
  /** INSERT, UPDATE, DELETE, REPLACE and schema changes, each statement once. */
  writes: number;
  /** Round trips: a batch is one, however many statements it holds. */
  roundTrips: number;
}

export const d1Counts: D1Counts = { reads: 0, writes: 0, roundTrips: 0 };

const WRITE = /^\s*(?:INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b/i;

function count(sql: string): void {
  if (WRITE.test(sql)) d1Counts.writes += 1;
  else d1Counts.reads += 1;
}

/** Each counting statement's own statement and SQL: a batch counts them and runs the originals. */
const originals = new WeakMap<D1PreparedStatement, { statement: D1PreparedStatement; sql: string }>();

function countingStatement(statement: D1PreparedStatement, sql: string): D1PreparedStatement {
  const run = <T>(execute: () => Promise<T>) => {
    count(sql);
    d1Counts.roundTrips += 1;
    return execute();
  };
  const counting = new Proxy(statement, {
    get(target, property) {
      switch (property) {
        case "bind":
          return (...values: unknown[]) => countingStatement(target.bind(...values), sql);
        case "first":
          return (column?: string) => run(() => (column === undefined ? target.first() : target.first(column)));
        case "run":
          return () => run(() => target.run());
        case "all":
          return () => run(() => target.all());
        case "raw":
          return (options?: { columnNames?: boolean }) => run(() => target.raw(options as { columnNames: true }));
        default: {
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === "function" ? value.bind(target) : value;
        }
      }
    },
  });
  originals.set(counting, { statement, sql });
  return counting;
}

function countingD1(db: D1Database): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => countingStatement(target.prepare(sql), sql);
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          d1Counts.roundTrips += 1;
          const unwrapped = statements.map((statement) => {
            const original = originals.get(statement);
            count(original?.sql ?? "");
            return original?.statement ?? statement;
          });
          return target.batch(unwrapped);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const counted = new WeakMap<Env, Env>();

/** `env` with its D1 binding counted; the same object for the same env, so caches keyed on it hold. */
export function countedEnv(env: Env): Env {
  let wrapped = counted.get(env);
  if (!wrapped) {
    wrapped = { ...env, DB: countingD1(env.DB) };
    counted.set(env, wrapped);
  }
  return wrapped;
}
