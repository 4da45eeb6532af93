/** Calls per day over 30 days as bars, with the numbers in a table for screen readers. */
export function UsageChart({ days }: { days: { day: string; calls: number; errors: number }[] }) {
  const max = Math.max(1, ...days.map((day) => day.calls + day.errors));
  const width = 600;
  const height = 120;
  const bar = width / days.length;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height + 16}`}
        className="h-auto w-full"
        role="img"
        aria-label="Calls per day over the last 30 days"
      >
        {days.map((day, index) => {
          const callsHeight = (day.calls / max) * height;
          const errorsHeight = (day.errors / max) * height;
          return (
            <g key={day.day}>
              <title>{`${day.day}: ${day.calls} calls, ${day.errors} errors`}</title>
              <rect
                x={index * bar + 1}
                y={height - callsHeight - errorsHeight}
                width={bar - 2}
                height={errorsHeight}
                className="fill-red-400"
              />
              <rect
                x={index * bar + 1}
                y={height - callsHeight}
                width={bar - 2}
                height={callsHeight}
                className="fill-brand-600"
              />
            </g>
          );
        })}
        <line x1={0} x2={width} y1={height} y2={height} className="stroke-slate-300 dark:stroke-slate-700" />
        <text x={0} y={height + 13} className="fill-slate-500 text-[10px]">
          {days[0]?.day}
        </text>
        <text x={width} y={height + 13} textAnchor="end" className="fill-slate-500 text-[10px]">
          {days.at(-1)?.day}
        </text>
      </svg>
      <figcaption className="mt-1 text-xs text-slate-500">
        <span className="mr-3 inline-block size-2 rounded-sm bg-brand-600" /> calls{" "}
        <span className="ml-3 mr-1 inline-block size-2 rounded-sm bg-red-400" /> errors
      </figcaption>
      <table className="sr-only">
        <caption>Calls per day</caption>
        <tbody>
          {days
            .filter((day) => day.calls + day.errors > 0)
            .map((day) => (
              <tr key={day.day}>
                <th scope="row">{day.day}</th>
                <td>{day.calls} calls</td>
                <td>{day.errors} errors</td>
              </tr>
            ))}
        </tbody>
      </table>
    </figure>
  );
}
