/** How an avatar is named in the grid and the pickers: what it was drawn from, or the photo it came from. */
import type { Avatar } from '#client/types';

/** The prompt it was drawn from, else "Uploaded photo #12". */
export function avatarName(avatar: Pick<Avatar, 'id' | 'source' | 'prompt'>): string {
  return avatar.source === 'prompt' && avatar.prompt ? avatar.prompt : `Uploaded photo #${avatar.id}`;
}

/** A picker's line: stock avatars say so (their ids are the service's, not the account's, and mean nothing to a person). */
export function avatarOption(avatar: Pick<Avatar, 'id' | 'source' | 'prompt' | 'stock'>, maxLength = 60): string {
  const name = avatarName(avatar);
  const short = [...name].length > maxLength ? `${[...name].slice(0, maxLength - 1).join('')}…` : name;
  return avatar.stock ? `Stock · ${short}` : avatar.source === 'prompt' ? `#${avatar.id} · ${short}` : short;
}
