/**
 * Drawing an illustrated avatar: DiceBear `avataaars` SVG for a rig and a set of face parts, the
 * still portrait as a PNG (sharp), and the two layers a reaction animates separately: the body
 * (shoulders, neck, clothes) and the head (face, hair, beard, glasses), so the head can tilt and nod
 * on its shoulders.
 *
 * DiceBear ships ES modules only; it is imported lazily, which also keeps it out of the cold start of
 * anything that imports the engine without drawing.
 */
import sharp from 'sharp';
import { avataaarsOptions, restingParts, type ExpressionParts, type IllustratedRig } from './illustrated-rig';

/** avataaars draws on a 280×280 canvas; the figure is centred at x = 140 (its body group is shifted by 8). */
export const AVATAAARS_VIEWBOX = 280;

type CreateAvatar = (style: unknown, options: Record<string, unknown>) => { toString(): string };
let dicebear: Promise<{ createAvatar: CreateAvatar; avataaars: unknown }> | undefined;

function loadDicebear() {
  dicebear ??= (async () => {
    // The one style we draw, not the whole collection: the other thirty styles weigh 2 MB in a bundle.
    const [core, style] = await Promise.all([import('@dicebear/core'), import('@dicebear/avataaars')]);
    return { createAvatar: core.createAvatar as unknown as CreateAvatar, avataaars: style as unknown };
  })();
  return dicebear;
}

/** The whole avatar as DiceBear draws it (square, with its background colour when asked). */
export async function avatarSvg(rig: IllustratedRig, parts: ExpressionParts, options: { background: boolean }): Promise<string> {
  const { createAvatar, avataaars } = await loadDicebear();
  return createAvatar(avataaars, avataaarsOptions(rig, parts, options.background)).toString();
}

/** The still portrait: a square PNG of the avatar with its resting face on its background colour. */
export async function renderAvatarPng(rig: IllustratedRig, size: number): Promise<Buffer> {
  const svg = await avatarSvg(rig, restingParts(rig), { background: true });
  // Rasterised at the target density (not scaled afterwards), so edges stay crisp at any size.
  return sharp(Buffer.from(svg), { density: (72 * size) / AVATAAARS_VIEWBOX })
    .resize(size, size, { fit: 'fill' })
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer();
}

// ---------------------------------------------------------------------------------------------
// Layers. avataaars' body group is, in this order: the skin (head, neck and shoulders in one path),
// the shadow the chin casts on the neck, then groups for clothing, mouth, nose, eyes, eyebrows, top
// (hair or hat), facial hair and accessories, each opened by a fixed translate. The body layer keeps
// neck, shoulders and clothes; the head layer gets a skin path that ends at the chin and everything
// drawn from the mouth on. Matching is on DiceBear 9's exact output; anything unexpected makes
// `avatarLayers` return null and the caller animates the avatar as one piece instead.

const BODY_OPEN = '<g transform="translate(8)">';
const GROUP_OPENERS = {
  clothing: '<g transform="translate(0 170)">',
  mouth: '<g transform="translate(78 134)">',
  nose: '<g transform="translate(104 122)">',
  eyes: '<g transform="translate(76 90)">',
  eyebrows: '<g transform="translate(76 82)">',
  top: '<g transform="translate(-1)">',
  facialHair: '<g transform="translate(49 72)">',
  accessories: '<g transform="translate(62 42)">',
} as const;
type GroupName = keyof typeof GROUP_OPENERS;

const SKIN_PATH = /^<path d="M132 36a56 56 [^"]*Z" fill="(#[0-9a-fA-F]{6})"\/>/;
const CHIN_SHADOW = /^<path d="M108 180\.61v8[^"]*Z" fill="#000" fill-opacity="\.1"\/>/;

/** Head skin: the face outline, closed along the chin line (the upper edge of the chin's shadow). */
const HEAD_SKIN_D =
  'M132 36a56 56 0 0 0-56 56v6.17A12 12 0 0 0 66 110v14a12 12 0 0 0 10.3 11.88 56.04 56.04 0 0 0 31.7 44.73' +
  'a55.79 55.79 0 0 0 24 5.39 55.79 55.79 0 0 0 24-5.39 56.04 56.04 0 0 0 31.7-44.73A12 12 0 0 0 198 124v-14' +
  'a12 12 0 0 0-10-11.83V92a56 56 0 0 0-56-56Z';
/** Neck and shoulders; the neck starts under the jaw so that a tilted head never shows a gap. */
const NECK_SKIN_D = 'M108 172V199.01h-4a72 72 0 0 0-72 72v9h200v-9a72 72 0 0 0-72-72h-4V172Z';
/**
 * DiceBear's circle style: open above y = 160, a circle of radius 120 below. The body is cut by it
 * into the classic round bust; the head only where long hair reaches below the shoulders.
 */
const CIRCLE_CLIP_D = 'M264 0H0v160h12c0 66.27 53.73 120 120 120 66.27 0 120-53.73 120-120h12V0Z';

/** Centre and radius of that circle in viewBox units (after the body group's shift of 8). */
export const AVATAAARS_DISC = { cx: 140, cy: 160, r: 120 } as const;
/** Where the head turns on the neck, in viewBox units. */
export const AVATAAARS_NECK_PIVOT = { x: 140, y: 186 } as const;
/** The middle of the face, in viewBox units: where the camera punches in. */
export const AVATAAARS_FACE_CENTRE = { x: 140, y: 118 } as const;
/**
 * Eyes to mouth in viewBox units: DiceBear places the eyes at (76, 90) and the mouth at (78, 134)
 * inside its 8-unit shift; the widest eyes span 20-92 of their group, the screaming mouth 40 units
 * down. A caption that keeps off this box never covers the expression.
 */
export const AVATAAARS_EYES_TO_MOUTH = { x: 100, y: 98, width: 80, height: 78 } as const;

/**
 * Soft modelling on the head's skin, under the face parts and the hair (body-group units): the eye
 * sockets and the jaw's edge a little darker, the forehead and the bridge of the nose a little lighter,
 * a shadow under the nose. avataaars' skin is one flat fill, and a flat disc with dark dots in it is
 * what a face detector (and a viewer's eye) reads least as a face: human found the face in 20 of 56
 * sampled frames of seven drawn reactions without it, 44 with it (docs/benchmarks.md, looks). The
 * tints are black and a warm brown at low opacity, so every skin tone darkens by the same share.
 */
const FACE_MODELLING =
  '<defs>' +
  '<radialGradient id="socket"><stop offset="0.35" stop-color="#2a1208" stop-opacity="0.3"/><stop offset="1" stop-color="#2a1208" stop-opacity="0"/></radialGradient>' +
  '<radialGradient id="jaw" cx="132" cy="112" r="60" gradientUnits="userSpaceOnUse"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.25"/></radialGradient>' +
  '<radialGradient id="under-nose"><stop offset="0" stop-color="#000" stop-opacity="0.15"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>' +
  '<radialGradient id="light"><stop offset="0" stop-color="#fff" stop-opacity="0.25"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>' +
  `<clipPath id="head-skin"><path d="${HEAD_SKIN_D}"/></clipPath>` +
  '</defs>' +
  '<g clip-path="url(#head-skin)">' +
  '<rect x="60" y="30" width="150" height="160" fill="url(#jaw)"/>' +
  '<ellipse cx="106" cy="112" rx="18" ry="13.5" fill="url(#socket)"/><ellipse cx="158" cy="112" rx="18" ry="13.5" fill="url(#socket)"/>' +
  '<ellipse cx="132" cy="136" rx="10" ry="6" fill="url(#under-nose)"/>' +
  '<ellipse cx="132" cy="80" rx="30" ry="20" fill="url(#light)"/><ellipse cx="132" cy="122" rx="6" ry="14" fill="url(#light)"/>' +
  '</g>';

export interface AvatarLayers {
  body: string;
  head: string;
}

function balanced(fragment: string): boolean {
  const opens = fragment.match(/<g[\s>]/g)?.length ?? 0;
  const closes = fragment.match(/<\/g>/g)?.length ?? 0;
  return opens === closes;
}

/** Splits DiceBear's body group into its parts; null if the markup is not the one expected. */
export function splitAvataaarsBody(svg: string): { skinFill: string; chinShadow: string; groups: Record<GroupName, string> } | null {
  const start = svg.indexOf(BODY_OPEN);
  if (start < 0) return null;
  let rest = svg.slice(start + BODY_OPEN.length);
  const skin = SKIN_PATH.exec(rest);
  if (!skin) return null;
  rest = rest.slice(skin[0].length);
  const shadow = CHIN_SHADOW.exec(rest);
  if (!shadow) return null;
  rest = rest.slice(shadow[0].length);

  const names = Object.keys(GROUP_OPENERS) as GroupName[];
  const groups = {} as Record<GroupName, string>;
  let cursor = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (!rest.startsWith(GROUP_OPENERS[name], cursor)) return null;
    const next = names[i + 1];
    let end: number;
    if (next) {
      end = rest.indexOf(GROUP_OPENERS[next], cursor + GROUP_OPENERS[name].length);
      if (end < 0) return null;
    } else {
      // The last group ends where the body group closes: the first point where the <g> count balances.
      end = -1;
      let depth = 0;
      const tag = /<g[\s>]|<\/g>/g;
      tag.lastIndex = cursor;
      for (let m = tag.exec(rest); m; m = tag.exec(rest)) {
        depth += m[0] === '</g>' ? -1 : 1;
        if (depth === 0) {
          end = m.index + m[0].length;
          break;
        }
      }
      if (end < 0) return null;
    }
    const group = rest.slice(cursor, end);
    if (!balanced(group)) return null;
    groups[name] = group;
    cursor = end;
  }
  return { skinFill: skin[1]!, chinShadow: shadow[0], groups };
}

const wrap = (content: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${AVATAAARS_VIEWBOX} ${AVATAAARS_VIEWBOX}" fill="none">` +
  `<g transform="translate(8)"><clipPath id="bust"><path d="${CIRCLE_CLIP_D}"/></clipPath>` +
  `<g clip-path="url(#bust)">${content}</g></g></svg>`;

/** The avatar as two transparent SVGs, body and head, that together draw the whole bust. */
export async function avatarLayers(rig: IllustratedRig, parts: ExpressionParts): Promise<AvatarLayers | null> {
  const split = splitAvataaarsBody(await avatarSvg(rig, parts, { background: false }));
  if (!split) return null;
  const g = split.groups;
  return {
    body: wrap(`<path d="${NECK_SKIN_D}" fill="${split.skinFill}"/>${split.chinShadow}${g.clothing}`),
    head: wrap(`<path d="${HEAD_SKIN_D}" fill="${split.skinFill}"/>${FACE_MODELLING}${g.mouth}${g.nose}${g.eyes}${g.eyebrows}${g.top}${g.facialHair}${g.accessories}`),
  };
}
