/** role-based-email-addresses ships no types: its main export is the list of role mailboxes. */
declare module "role-based-email-addresses" {
  const roles: string[];
  export default roles;
}
