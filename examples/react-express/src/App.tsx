// The app's frame: its own sign-in (a stand-in for yours), a menu, and two routes. The job of
// making a video is kept here, above the routes, so that it outlives the studio's route (job.ts).
import { useEffect, useState, type FormEvent } from 'react';
import { NavLink, Route, Routes } from 'react-router';
import { Activity } from './Activity.js';
import type { Config, User } from './api.js';
import { storedJob, storeJob, type Job } from './job.js';
import { Studio } from './Studio.js';

const USER_KEY = 'video-plugin-starter:user';

export function App({ config }: { config: Config }) {
  const [user, setUser] = useState<User | undefined>(() => {
    const text = sessionStorage.getItem(USER_KEY);
    return text ? (JSON.parse(text) as User) : undefined;
  });
  const [job, setJob] = useState<Job | undefined>(storedJob);
  useEffect(() => storeJob(job), [job]);

  function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const signedIn = { userID: String(form.get('userID')), name: String(form.get('name') ?? '') };
    sessionStorage.setItem(USER_KEY, JSON.stringify(signedIn));
    setUser(signedIn);
  }

  return (
    <main>
      <h1>Videos for your business</h1>
      {user ? (
        <>
          <nav aria-label="Pages">
            <NavLink to="/">Studio</NavLink>
            <NavLink to="/activity">Activity</NavLink>
          </nav>
          <Routes>
            <Route path="/" element={<Studio config={config} user={user} job={job} setJob={setJob} />} />
            <Route path="/activity" element={<Activity />} />
          </Routes>
        </>
      ) : (
        // Stands in for your app's own login: the back end signs this user in to the studio.
        <form onSubmit={signIn}>
          <label>
            Your user ID <input name="userID" required autoComplete="username" />
          </label>
          <label>
            Name <input name="name" autoComplete="given-name" />
          </label>
          <button>Sign in</button>
        </form>
      )}
    </main>
  );
}
