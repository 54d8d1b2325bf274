import { type HostConfig, type Video } from '../../wire/api.js';
import type { Generation, Topic } from './client.js';
export type View =
  | {
      name: 'blank';
    }
  | {
      name: 'signIn';
      error?: UserError;
    }
  | {
      name: 'search';
      sourceURL?: string;
      searching: boolean;
      error?: UserError;
    }
  | {
      name: 'prompt';
      topic: Topic;
      error?: UserError;
    }
  | {
      name: 'preview';
      generation: Generation;
      video?: Video;
    }
  | {
      name: 'editor';
      video: Video;
      confirming: boolean;
      board?: EditorBoard;
    };
/** An error to show the user: shown by its code, in the studio's language. */
export type UserError =
  | {
      code?: string;
    }
  | undefined;
/** A scene as the editor edits it; `image` indexes `EditorBoard.images`, or is null. */
export interface SceneDraft {
  heading: string;
  body?: string;
  narration: string;
  image: number | null;
}
/** The storyboard in the editor (real media): the scenes and the topic's images to pick from. */
export interface EditorBoard {
  scenes: SceneDraft[];
  images: string[];
  editable: boolean;
}
export interface ViewActions {
  search(sourceURL: string): void;
  generate(params: {
    topicId: string;
    aspectRatio: string;
    duration: number;
    language: string;
    videoInstructions?: string;
  }): void;
  openInEditor(videoId: string): void;
  /** Saves the name and (real media) the scenes being edited. */
  save(name: string): void;
  editScene(index: number, patch: Partial<SceneDraft>): void;
  moveScene(index: number, by: -1 | 1): void;
  removeScene(index: number): void;
  askComplete(): void;
  cancelComplete(): void;
  complete(): void;
  exitEditor(): void;
  close(): void;
  signIn(emailAddress: string): void;
  signOut(): void;
}
/** Renders `view` into `root`. */
export declare function renderView(
  root: HTMLElement,
  view: View,
  actions: ViewActions,
  config: HostConfig | undefined,
): void;
//# sourceMappingURL=views.d.ts.map
