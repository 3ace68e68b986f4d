/**
 * The studio's icons: Heroicons (outline), one set for the whole studio, named here once so pages ask
 * for what an icon means (IconRefresh) and take a Mantine-like `size`. Heroicons over Tabler: the
 * same line style in a package a quarter of the size (21 MB installed against 92 MB).
 */
import type { ComponentType, SVGProps } from 'react';
import {
  ArrowDownTrayIcon,
  ArrowPathIcon,
  ArrowUpTrayIcon,
  BookmarkIcon,
  BuildingStorefrontIcon,
  ChartBarIcon,
  ChartPieIcon,
  CheckIcon,
  ClockIcon,
  DocumentDuplicateIcon,
  ExclamationTriangleIcon,
  EyeSlashIcon,
  FilmIcon,
  KeyIcon,
  LightBulbIcon,
  ListBulletIcon,
  PauseIcon,
  PhotoIcon,
  PlayIcon,
  PlusIcon,
  RectangleStackIcon,
  ShareIcon,
  SparklesIcon,
  TrashIcon,
  UserCircleIcon,
  VideoCameraIcon,
} from '@heroicons/react/24/outline';

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

export const IconAlertTriangle = sized(ExclamationTriangleIcon);
export const IconBookmark = sized(BookmarkIcon);
export const IconBuildingStore = sized(BuildingStorefrontIcon);
export const IconBulb = sized(LightBulbIcon);
export const IconChartBar = sized(ChartBarIcon);
export const IconCheck = sized(CheckIcon);
export const IconClockExclamation = sized(ClockIcon);
export const IconCopy = sized(DocumentDuplicateIcon);
export const IconDownload = sized(ArrowDownTrayIcon);
export const IconGauge = sized(ChartPieIcon);
export const IconKey = sized(KeyIcon);
export const IconLibraryPhoto = sized(RectangleStackIcon);
export const IconListDetails = sized(ListBulletIcon);
export const IconMovie = sized(FilmIcon);
export const IconPhoto = sized(PhotoIcon);
export const IconPhotoOff = sized(EyeSlashIcon);
export const IconPlayerPause = sized(PauseIcon);
export const IconPlayerPlay = sized(PlayIcon);
export const IconPlus = sized(PlusIcon);
export const IconRefresh = sized(ArrowPathIcon);
export const IconShare = sized(ShareIcon);
export const IconSparkles = sized(SparklesIcon);
export const IconTrash = sized(TrashIcon);
export const IconUpload = sized(ArrowUpTrayIcon);
export const IconUserCircle = sized(UserCircleIcon);
export const IconVideo = sized(VideoCameraIcon);
