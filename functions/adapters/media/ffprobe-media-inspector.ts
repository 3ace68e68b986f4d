/** Reference clips judged by their bytes and ffprobe (#render: render/uploads/reference-video.ts). */
import { inspectReferenceVideo, referenceContentType } from '#render';
import type { MediaInspector, ReferenceClip } from '#ports/media-inspector';

export class FfprobeMediaInspector implements MediaInspector {
  async inspectReference(path: string, field?: string): Promise<ReferenceClip> {
    const info = await inspectReferenceVideo(path, field);
    return { contentType: referenceContentType(info.container), durationS: info.durationS };
  }
}
