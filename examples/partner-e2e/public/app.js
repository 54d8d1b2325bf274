/* global fetch */
// The partner page's own code: sign the user up, list their videos, open the studio.
const studio = document.getElementById('studio');
const status = document.getElementById('status');

async function token(body) {
  const response = await fetch('/api/video-plugin-token', { method: 'POST', body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`token endpoint: ${response.status}`);
  return (await response.json()).token;
}

const { partnerID, serviceURL } = await (await fetch('/config.json')).json();
studio.setAttribute('service-url', serviceURL);
studio.setAttribute('partner-id', partnerID);
// Where the browser denies the studio's frame its storage, a reload of the frame would sign the
// user out: this signs the same account back in with a fresh token from our back end.
studio.getLoginToken = (accountID) => token({ kind: 'login', accountID });
studio.addEventListener('pluginOpened', () => (status.textContent = 'Studio open.'));
studio.addEventListener('videoCreated', (event) => {
  const item = document.createElement('li');
  item.textContent = event.detail.name;
  document.getElementById('videos').append(item);
});

const signUp = document.getElementById('sign-up');
signUp.addEventListener('click', async () => {
  try {
    const accountID = await studio.createAccount(await token({ kind: 'create' }));
    const videos = await studio.getVideos();
    status.textContent = `Signed up as ${accountID} with ${videos.length} videos.`;
    document.getElementById('open-studio').disabled = false;
  } catch (error) {
    // The user is told, in words; the developer finds the SDK's error (name, code, fix) in the console.
    status.textContent = 'Sign-up did not work. Please try again.';
    console.error(error);
  }
});

document.getElementById('open-studio').addEventListener('click', () => studio.openPlugin());
// The buttons wait for the page's code: a click before it is listened to would do nothing.
signUp.disabled = false;
