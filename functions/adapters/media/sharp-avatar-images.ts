/** Avatar uploads checked and re-encoded with sharp (#render: render/uploads/image-upload.ts). */
import type { AvatarImages, PreparedAvatarImage } from '#ports/avatar-images';
import { prepareAvatarImage } from '#render';

export class SharpAvatarImages implements AvatarImages {
  prepare(path: string): Promise<PreparedAvatarImage> {
    return prepareAvatarImage(path);
  }
}
