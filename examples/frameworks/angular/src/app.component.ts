// Angular binds to <video-plugin> like to any element, once CUSTOM_ELEMENTS_SCHEMA allows the
// tag: [attr.partner-id] sets an attribute, [appearance] a property (objects included), and
// (pluginOpened) listens for the event, case kept.
import { CUSTOM_ELEMENTS_SCHEMA, Component, ElementRef, signal, viewChild } from '@angular/core';
import 'video-plugin/element'; // registers <video-plugin>
import type { VideoPluginElement } from 'video-plugin/element';

const params = new URLSearchParams(location.search);

/** A token from your back end, which checks who is signed in to your app first. */
async function createToken(): Promise<string> {
  const response = await fetch('/api/video-plugin-token', { method: 'POST', body: '{"kind":"create"}' });
  return (await response.json()).token;
}

@Component({
  selector: 'app-root',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <main>
      <h1>Angular</h1>
      <button (click)="signUp()">Sign up</button>
      <button (click)="studio()?.nativeElement?.openPlugin()">Open studio</button>
      <button (click)="theme.set(theme() === 'light' ? 'dark' : 'light')">Toggle theme</button>
      <button (click)="locale.set('de')">Deutsch</button>
      <button (click)="shown.set(!shown())">{{ shown() ? 'Remove studio' : 'Insert studio' }}</button>
      <p role="status">{{ status() }}</p>
      <p id="events">ready {{ ready() }} · opened {{ opened() }}</p>
      @if (shown()) {
        <video-plugin
          #studio
          [attr.partner-id]="partner"
          [attr.service-url]="service"
          [theme]="theme()"
          [locale]="locale()"
          [appearance]="appearance"
          [editor]="editor"
          (ready)="ready.set(ready() + 1)"
          (pluginOpened)="opened.set(opened() + 1)"
          style="display: block; height: 480px"
        ></video-plugin>
      }
    </main>
  `,
})
export class AppComponent {
  readonly studio = viewChild<ElementRef<VideoPluginElement>>('studio');
  readonly partner = params.get('partner') ?? '';
  readonly service = params.get('service') ?? '';
  readonly appearance = { colorPrimary: '#b91c1c', borderRadius: 12 };
  readonly editor = { labels: { completeVideoConfirmation: { shouldShow: true, title: 'Finish this video?' } } };
  readonly theme = signal<'light' | 'dark'>('light');
  readonly locale = signal('en');
  readonly shown = signal(true);
  readonly status = signal('Not signed up.');
  readonly ready = signal(0);
  readonly opened = signal(0);

  async signUp(): Promise<void> {
    const studio = this.studio()!.nativeElement;
    const accountID = await studio.createAccount(await createToken());
    const videos = await studio.getVideos();
    this.status.set(`Signed up as ${accountID} with ${videos.length} videos.`);
  }
}
