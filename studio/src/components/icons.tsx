/**
 * The studio's icons: Heroicons (outline), one set for the whole studio, named here once so pages ask
 * for what an icon means (IconRefresh) and take a Mantine-like `size`. Each `~icons/heroicons/…` import
 * is compiled at build time by unplugin-icons (studio/vite.config.mts) from @iconify-json/heroicons,
 * one JSON file, so only these icons reach the bundle and node_modules holds no 5,000-file package.
 */
import type { ComponentType, SVGProps } from 'react';
import ArrowDownTray from '~icons/heroicons/arrow-down-tray';
import ArrowPath from '~icons/heroicons/arrow-path';
import ArrowUpTray from '~icons/heroicons/arrow-up-tray';
import Bookmark from '~icons/heroicons/bookmark';
import BuildingStorefront from '~icons/heroicons/building-storefront';
import ChartBar from '~icons/heroicons/chart-bar';
import ChartPie from '~icons/heroicons/chart-pie';
import Check from '~icons/heroicons/check';
import Clock from '~icons/heroicons/clock';
import CreditCard from '~icons/heroicons/credit-card';
import DocumentDuplicate from '~icons/heroicons/document-duplicate';
import ExclamationTriangle from '~icons/heroicons/exclamation-triangle';
import EyeSlash from '~icons/heroicons/eye-slash';
import Film from '~icons/heroicons/film';
import Key from '~icons/heroicons/key';
import LightBulb from '~icons/heroicons/light-bulb';
import ListBullet from '~icons/heroicons/list-bullet';
import Pause from '~icons/heroicons/pause';
import Photo from '~icons/heroicons/photo';
import Play from '~icons/heroicons/play';
import Plus from '~icons/heroicons/plus';
import RectangleStack from '~icons/heroicons/rectangle-stack';
import Share from '~icons/heroicons/share';
import Sparkles from '~icons/heroicons/sparkles';
import Trash from '~icons/heroicons/trash';
import UserCircle from '~icons/heroicons/user-circle';
import VideoCamera from '~icons/heroicons/video-camera';

interface IconProps extends Omit<SVGProps<SVGSVGElement>, 'ref' | 'stroke'> {
  /** Width and height in px. */
  size?: number;
  /** Line width. */
  stroke?: number;
}

export type StudioIcon = ComponentType<IconProps>;

function sized(Hero: ComponentType<SVGProps<SVGSVGElement>>): StudioIcon {
  function Icon({ size = 24, stroke = 1.6, ...svg }: IconProps) {
    // Decorative unless a label is given: a screen reader reads the button's text instead.
    const hidden = svg['aria-label'] === undefined && svg['aria-hidden'] === undefined;
    return <Hero width={size} height={size} strokeWidth={stroke} aria-hidden={hidden || undefined} {...svg} />;
  }
  return Icon;
}

export const IconAlertTriangle = sized(ExclamationTriangle);
export const IconBookmark = sized(Bookmark);
export const IconBuildingStore = sized(BuildingStorefront);
export const IconBulb = sized(LightBulb);
export const IconChartBar = sized(ChartBar);
export const IconCheck = sized(Check);
export const IconClockExclamation = sized(Clock);
export const IconCopy = sized(DocumentDuplicate);
export const IconCreditCard = sized(CreditCard);
export const IconDownload = sized(ArrowDownTray);
export const IconGauge = sized(ChartPie);
export const IconKey = sized(Key);
export const IconLibraryPhoto = sized(RectangleStack);
export const IconListDetails = sized(ListBullet);
export const IconMovie = sized(Film);
export const IconPhoto = sized(Photo);
export const IconPhotoOff = sized(EyeSlash);
export const IconPlayerPause = sized(Pause);
export const IconPlayerPlay = sized(Play);
export const IconPlus = sized(Plus);
export const IconRefresh = sized(ArrowPath);
export const IconShare = sized(Share);
export const IconSparkles = sized(Sparkles);
export const IconTrash = sized(Trash);
export const IconUpload = sized(ArrowUpTray);
export const IconUserCircle = sized(UserCircle);
export const IconVideo = sized(VideoCamera);
