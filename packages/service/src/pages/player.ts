/**
 * `<vp-player>`: the studio's video player. Its controls are the studio's own, named in the
 * studio's language (the browser's built-in controls are named in the browser's): play or pause,
 * the position, mute, and captions, which are on until the user turns them off. It never plays by
 * itself, so a user who asked for reduced motion (or anyone) starts the video. It renders in the
 * light DOM, so that the studio's stylesheet reaches it, and keeps its state across the view's
 * re-renders (the view sets only its properties). app.ts defines it, at boot. The video itself is
 * no tab stop (Firefox makes one of a `<video>`, where no key works): its buttons are the keyboard's.
 */
import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import { formatSeconds, t } from './i18n.js';

export class StudioPlayer extends LitElement {
  static override properties: PropertyDeclarations = {
    src: {},
    poster: {},
    captions: {},
    chapters: {},
    language: {},
    label: {},
    playing: { state: true },
    muted: { state: true },
    captionsOn: { state: true },
    time: { state: true },
    duration: { state: true },
  };

  declare src: string;
  declare poster: string;
  /** The WebVTT captions' URL. */
  declare captions: string;
  /** The WebVTT chapters' URL, where the render has them. */
  declare chapters: string | undefined;
  /** The captions' language (a BCP 47 tag). */
  declare language: string;
  declare label: string;
  playing = false;
  muted = false;
  captionsOn = true;
  time = 0;
  duration = 0;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  get video(): HTMLVideoElement | null {
    return this.querySelector('video');
  }

  protected override render() {
    const seconds = (value: number) => formatSeconds(Math.round(value));
    return html`<video
        preload="metadata"
        playsinline
        tabindex="-1"
        style="display:block;width:100%;height:auto;max-height:60vh;background:#000"
        poster=${this.poster}
        src=${this.src}
        aria-label=${this.label}
        .muted=${this.muted}
        @click=${this.#toggle}
        @play=${() => (this.playing = true)}
        @pause=${() => (this.playing = false)}
        @timeupdate=${() => (this.time = this.video?.currentTime ?? 0)}
        @loadedmetadata=${() => {
          this.duration = Number.isFinite(this.video?.duration) ? this.video!.duration : 0;
          this.#showCaptions();
        }}
      >
        <track kind="captions" default srclang=${this.language} label=${t('video.captions')} src=${this.captions} />
        ${
          this.chapters
            ? html`<track kind="chapters" srclang=${this.language} label=${t('video.chapters')} src=${this.chapters} />`
            : nothing
        }
      </video>
      <div class="player" role="group" aria-label=${t('player.controls')}>
        <button
          type="button"
          class="secondary"
          data-player="play"
          aria-label=${t(this.playing ? 'player.pause' : 'player.play')}
          @click=${this.#toggle}
        >
          <span aria-hidden="true">${this.playing ? '❚❚' : '▶'}</span>
        </button>
        <input
          type="range"
          data-player="position"
          min="0"
          max=${this.duration}
          step="0.1"
          .value=${String(this.time)}
          aria-label=${t('player.position')}
          aria-valuetext=${t('player.positionValue', { time: seconds(this.time), duration: seconds(this.duration) })}
          @input=${(event: Event) => {
            const video = this.video;
            if (video) video.currentTime = Number((event.target as HTMLInputElement).value);
          }}
        />
        <button
          type="button"
          class="secondary"
          data-player="mute"
          aria-pressed=${String(this.muted)}
          aria-label=${t('player.mute')}
          @click=${() => (this.muted = !this.muted)}
        >
          <span aria-hidden="true">🔇</span>
        </button>
        <button
          type="button"
          class="secondary"
          data-player="captions"
          aria-pressed=${String(this.captionsOn)}
          @click=${() => {
            this.captionsOn = !this.captionsOn;
            this.#showCaptions();
          }}
        >
          ${t('video.captions')}
        </button>
      </div>`;
  }

  protected override firstUpdated(): void {
    this.#showCaptions();
  }

  #toggle = (): void => {
    const video = this.video;
    if (!video) return;
    // A refused play (no decoder for it, say) leaves the video paused, which the button then says.
    if (video.paused) void video.play().catch(() => (this.playing = false));
    else video.pause();
  };

  /** Shows the captions, or hides them (still loaded, so turning them on again is instant). */
  #showCaptions(): void {
    const track = this.video?.textTracks[0];
    if (track) track.mode = this.captionsOn ? 'showing' : 'hidden';
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'vp-player': StudioPlayer;
  }
}
