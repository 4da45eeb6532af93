import { Link } from "react-router";

/** One row: a status, the problem types answered with it, and what the third column says of them. */
export interface ProblemRow {
  status: number;
  types: readonly string[];
  text: string;
}

/**
 * Problem types by status, each type linking to its page: the list of every type on /problems
 * and each API's own errors on its docs page are the same table with a different third column.
 */
export function ProblemTable({
  rows,
  textHeading,
  className,
}: {
  rows: readonly ProblemRow[];
  textHeading: string;
  className: string;
}) {
  return (
    <table className={`${className} w-full text-left text-sm`}>
      <thead>
        <tr className="border-b border-slate-200 dark:border-slate-700">
          <th scope="col" className="py-2 pr-3">
            Status
          </th>
          <th scope="col" className="py-2 pr-3">
            Type
          </th>
          <th scope="col" className="py-2">
            {textHeading}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.types.join(" ")} className="border-b border-slate-100 align-top dark:border-slate-800">
            <td className="py-2 pr-3">{row.status}</td>
            <td className="py-2 pr-3 font-mono text-xs">
              {row.types.map((type, index) => (
                <span key={type}>
                  {index > 0 && " / "}
                  <Link to={`/problems/${type}`} className="text-brand-600 hover:underline">
                    {type}
                  </Link>
                </span>
              ))}
            </td>
            <td className="py-2 text-slate-600 dark:text-slate-400">{row.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
