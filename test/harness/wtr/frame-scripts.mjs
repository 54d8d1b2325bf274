// The scripts the frame commands (frame-commands.mjs) run inside the service's frame: each is a
// function whose source is sent to the frame (Puppeteer's evaluate, WebDriver's execute), so it uses
// nothing from this module's scope.

/* global sessionStorage, DOMException, getComputedStyle, Image -- these run inside the frame */
// What the browser can do to the frame's own storage, played inside the frame (session.test.ts).
// Each returns whether the frame's sessionStorage is usable afterwards.
export const STORAGE_ACTIONS = {
  // Just look: false where the browser denies the frame any storage (third-party storage blocked).
  probe: () => {
    try {
      return sessionStorage.length >= 0;
    } catch {
      return false;
    }
  },
  // The user or the browser clears the frame's site data: a reload finds nothing.
  clear: () => {
    try {
      sessionStorage.clear();
      return true;
    } catch {
      return false;
    }
  },
  // The browser starts denying storage to this document, as Chromium does when third-party
  // storage is blocked: every touch of window.sessionStorage throws a SecurityError.
  deny: () => {
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get() {
        throw new DOMException('Access is denied for this document.', 'SecurityError');
      },
    });
    return false;
  },
};

/** What white-label.test.ts reads of an element: its text and look, and the page's language. */
export const PROBE = (selector) => {
  const element = document.querySelector(selector);
  // Not there yet, or not laid out yet (Firefox computes no style in a frame it has not shown).
  if (!element || !getComputedStyle(document.documentElement).backgroundColor) return null;
  const style = getComputedStyle(element);
  return {
    text: element.textContent.trim(),
    value: element.value,
    disabled: element.matches(':disabled'),
    // The form controls in it that a person can still use (a disabled fieldset disables them all).
    enabled: [...element.querySelectorAll('input, select, textarea, button')].filter((c) => !c.matches(':disabled'))
      .length,
    lang: document.documentElement.lang,
    color: style.color,
    background: style.backgroundColor,
    fontFamily: style.fontFamily,
    radius: style.borderTopLeftRadius,
    paddingTop: style.paddingTop,
    pageBackground: getComputedStyle(document.documentElement).backgroundColor,
    colorScheme: getComputedStyle(document.documentElement).colorScheme,
  };
};

/**
 * What fit.test.ts reads of the studio once `selector` is there: the frame's width and what
 * overflows it, the page's natural height against the frame's, and every rendered control (button,
 * link, field) smaller than 44 × 44 CSS pixels.
 */
export const FIT = (selector) => {
  const root = document.documentElement;
  if (!document.querySelector(selector) || !getComputedStyle(root).backgroundColor) return null;
  const small = [];
  // (An element with tabindex -1 is no control: a heading or status the studio gives the focus to.)
  for (const control of document.querySelectorAll(
    'button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])',
  )) {
    const { width, height } = control.getBoundingClientRect();
    // Not rendered (display: none, a closed dialog): nothing to touch.
    if (!width && !height) continue;
    if (width < 44 || height < 44) {
      small.push(`${control.outerHTML.slice(0, 60)}… ${width.toFixed(1)} × ${height.toFixed(1)}`);
    }
  }
  return {
    clientWidth: root.clientWidth,
    scrollWidth: root.scrollWidth,
    contentHeight: root.getBoundingClientRect().height,
    scrollHeight: root.scrollHeight,
    frameHeight: window.innerHeight,
    frameWidth: window.innerWidth,
    fit: root.hasAttribute('data-fit'),
    small,
  };
};

/** frame-pictures: the `<img>`s matching selector, once none is still loading. */
export const PICTURES = (selector) => {
  const images = [...document.querySelectorAll(selector)];
  if (images.length === 0 || images.some((image) => !image.complete)) return null;
  return images.map((image) => ({ src: image.src, width: image.naturalWidth }));
};

/**
 * What the frame shows, for a command that gave up: which document it is (path, title, whether the
 * app's root has content), its views (data-view), its alert and the values of its fields, so that
 * a timeout names the screen the test did not expect.
 */
export const SHOWN = () => {
  const views = [...document.querySelectorAll('[data-view]')].map((view) => view.dataset.view);
  const alert = document.querySelector('[role="alert"]')?.textContent.trim();
  const fields = [...document.querySelectorAll('input')].map((input) => `#${input.id}=${JSON.stringify(input.value)}`);
  const focus = document.activeElement;
  const focused =
    focus && focus !== document.body
      ? `${focus.localName}${focus.id ? `#${focus.id}` : ''} "${focus.getAttribute('aria-label') ?? focus.textContent.trim().slice(0, 40)}"`
      : 'nothing';
  const app = document.getElementById('app');
  const where = `${location.pathname}${location.search}, title "${document.title}", #app ${app ? `with ${app.childElementCount} children` : 'missing'}`;
  return `${where}: views [${views.join(', ')}]${alert ? `, alert "${alert}"` : ''}${fields.length ? `, fields ${fields.join(' ')}` : ''}, focus on ${document.hasFocus() ? focused : 'another document'} (${document.readyState})`;
};

/**
 * frame-policy: what the frame's policies do to a string given to a DOM XSS sink, to an assignment
 * of `document.domain` and of the partner's page's location (to `url`: if it were obeyed, the test
 * page would be gone), and to an image from `url`. Each refusal is the error's name, `allowed`
 * when it was taken. Resolves once the image loads (not refused) or its `img-src` violation event
 * arrives; after 10 s without either, with `image: 'no violation event'` (a hang detector, not a wait).
 */
export const POLICY = (url) =>
  new Promise((resolve) => {
    const attempt = (act) => {
      try {
        act();
        return 'allowed';
      } catch (error) {
        return error.name;
      }
    };
    const sink = attempt(() => (document.createElement('div').innerHTML = '<b>not trusted</b>'));
    const own = document.domain;
    const domain = attempt(() => (document.domain = own));
    const top = attempt(() => (window.top.location.href = url));
    const picture = new Image();
    let timer;
    const finish = (image) => {
      clearTimeout(timer);
      document.removeEventListener('securitypolicyviolation', violated);
      picture.remove();
      resolve({ trustedTypes: 'trustedTypes' in window, sink, domain, top, image });
    };
    const violated = (event) => {
      const directive = event.effectiveDirective || event.violatedDirective;
      if (directive.startsWith('img-src')) finish({ refused: true, directive, blocked: event.blockedURI });
    };
    document.addEventListener('securitypolicyviolation', violated);
    picture.addEventListener('load', () => finish({ refused: false }));
    picture.addEventListener('error', () => {
      timer = setTimeout(() => finish('no violation event'), 10000);
    });
    picture.src = url;
    document.body.append(picture);
  });
