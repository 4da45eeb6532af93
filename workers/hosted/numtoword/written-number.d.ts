// written-number ships no types; the tests use it as an independent reference for es and fr.
declare module "written-number" {
  function writtenNumber(value: number, options?: { lang?: string; noAnd?: boolean }): string;
  export default writtenNumber;
}
