/**
 * Draws a menu entry's icon from its `class_name`. Only the icons the registry names are
 * imported, so the bundle carries these and no others.
 */
import {
  AudioLines,
  Banknote,
  CircleUserRound,
  Clapperboard,
  Eraser,
  FileCode,
  FileText,
  FileUser,
  Globe,
  House,
  Images,
  Link,
  MailCheck,
  MapPin,
  Mic,
  Palette,
  Phone,
  Pipette,
  Plug,
  QrCode,
  Route,
  ScanText,
  SlidersHorizontal,
  WholeWord,
  type LucideIcon,
} from "lucide-react";

const ICONS: Record<string, LucideIcon> = {
  "audio-lines": AudioLines,
  banknote: Banknote,
  "circle-user-round": CircleUserRound,
  clapperboard: Clapperboard,
  eraser: Eraser,
  "file-code": FileCode,
  "file-text": FileText,
  "file-user": FileUser,
  globe: Globe,
  house: House,
  images: Images,
  link: Link,
  "mail-check": MailCheck,
  "map-pin": MapPin,
  mic: Mic,
  palette: Palette,
  phone: Phone,
  pipette: Pipette,
  "qr-code": QrCode,
  route: Route,
  "scan-text": ScanText,
  "sliders-horizontal": SlidersHorizontal,
  "whole-word": WholeWord,
};

export function ApiIcon({ name, className = "size-4" }: { name: string; className?: string }) {
  const Icon = ICONS[name] ?? Plug;
  return <Icon aria-hidden="true" className={className} />;
}
