/**
 * The studio's words in English: the reference catalogue. Every other locale has exactly these
 * keys (the type checker and test/node/locales.test.ts refuse a missing or extra key) and the
 * same `{placeholders}`.
 */
export declare const en: {
  'studio.title': string;
  'studio.close': string;
  'studio.signOut': string;
  'studio.standalone': string;
  'steps.label': string;
  'steps.source': string;
  'steps.prompt': string;
  'steps.preview': string;
  'search.heading': string;
  'search.url': string;
  'search.submit': string;
  'search.searching': string;
  'search.reading': string;
  'prompt.loadingTitle': string;
  'prompt.aspectRatio': string;
  'prompt.duration': string;
  'prompt.language': string;
  'prompt.instructions': string;
  'prompt.generate': string;
  'prompt.waiting': string;
  'preview.heading': string;
  'preview.generating': string;
  'preview.caption': string;
  'preview.openEditor': string;
  'video.previewOf': string;
  'video.label': string;
  'video.captions': string;
  'editor.heading': string;
  'editor.name': string;
  'editor.scenes': string;
  'editor.scenesReadOnly': string;
  'editor.sceneTitle': string;
  'editor.sceneText': string;
  'editor.sceneVoiceover': string;
  'editor.scenePicture': string;
  'editor.noPicture': string;
  'editor.pictureN': string;
  'editor.moveUp': string;
  'editor.moveDown': string;
  'editor.remove': string;
  'editor.removeScene': string;
  'editor.saveAndPreview': string;
  'editor.save': string;
  'editor.complete': string;
  'editor.exit': string;
  'editor.rendered': string;
  'editor.rendering': string;
  'confirm.title': string;
  'confirm.body': string;
  'confirm.confirm': string;
  'confirm.cancel': string;
  'signIn.heading': string;
  'signIn.email': string;
  'signIn.submit': string;
  'error.generic': string;
  'error.invalid_parameter': string;
  'error.not_authenticated': string;
  'error.source_unreachable': string;
  'error.source_timeout': string;
  'error.source_http_error': string;
  'error.source_not_html': string;
  'error.generation_failed': string;
  'error.render_failed': string;
};
/** The keys of the studio's catalogue. */
export type MessageKey = keyof typeof en;
/** A locale's catalogue: every key, each a string. */
export type Messages = Record<MessageKey, string>;
//# sourceMappingURL=en.d.ts.map
