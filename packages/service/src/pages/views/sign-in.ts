/** Sign-in (uncontrolled auth): the email address to sign in with. */
import { html, nothing, type TemplateResult } from 'lit';
import { errorText, t } from '../i18n.js';
import { formValue, type View, type ViewActions } from './common.js';

export function signInView(view: Extract<View, { name: 'signIn' }>, actions: ViewActions): TemplateResult {
  return html`<h2>${t('signIn.heading')}</h2>
    <form
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.signIn(formValue(event, 'emailAddress'));
      }}
    >
      <label for="email">${t('signIn.email')}</label>
      <input id="email" name="emailAddress" type="email" required autocomplete="email" />
      <div class="row"><button type="submit">${t('signIn.submit')}</button></div>
    </form>
    ${view.error ? html`<p role="alert" class="error">${errorText(view.error)}</p>` : nothing}`;
}
