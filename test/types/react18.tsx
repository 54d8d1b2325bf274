// video-plugin/react: the React 18 component, its props and its ref.
import { useRef } from 'react';
import { VideoPlugin, type VideoPluginElement } from 'video-plugin/react';

export function Studio() {
  const ref = useRef<VideoPluginElement>(null);
  return (
    <VideoPlugin
      ref={ref}
      partnerID="acme"
      theme="dark"
      appearance={{ colorPrimary: '#1d4ed8' }}
      editor={{ labels: { completeVideoConfirmation: { shouldShow: true } } }}
      onPluginOpened={(event) => event.detail satisfies null}
      onVideoCreated={(event) => void ref.current?.openEditorForVideo(event.detail.id)}
    />
  );
}

export function Bad() {
  // @ts-expect-error -- theme is light, dark or auto
  return <VideoPlugin theme="blue" />;
}
