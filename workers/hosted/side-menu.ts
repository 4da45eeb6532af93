/**
 * The side-menu list (docs/product.md#menu-item), derived from the registry. The top
 * navigation bar, the search box and the home carousel all read this list.
 */
import { HOSTED_APIS, docsPath, type HostedApi } from "./registry";

export interface SideMenuItem {
  _id: string;
  name: string;
  endpoint: string;
  class_name: string;
  description: string;
}

export const HOME_MENU_ITEM: SideMenuItem = {
  _id: "home",
  name: "Home",
  endpoint: "/",
  class_name: "house",
  description: "Hosted APIs for developers: read the docs, get a key and call them in a minute.",
};

export function listSideMenu(): SideMenuItem[] {
  return [
    HOME_MENU_ITEM,
    ...HOSTED_APIS.map((api: HostedApi) => ({
      _id: `api_${api.slug}`,
      name: api.name,
      endpoint: docsPath(api),
      class_name: api.icon,
      description: api.description,
    })),
  ];
}
