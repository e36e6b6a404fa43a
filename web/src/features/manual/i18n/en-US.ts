export default {
  title: 'User manual',
  intro: 'What this version of the dispatcher console does, and how to use it.',
  sections: [
    {
      id: 'signin',
      title: 'Signing in',
      body: [
        'Enter your 8-digit dispatcher account and password, then choose Sign in. Only dispatcher accounts can use the console; a terminal account is refused with "incorrect account type".',
        'Tick "Remember password" to have the browser fill in the form next time. The password is stored encrypted with a key that never leaves this browser.',
        'After five wrong passwords in a row the account is locked for 10 minutes. "Forgot password?" sends a verification code to the e-mail bound to the account and lets you choose a new password.',
      ],
    },
    {
      id: 'shell',
      title: 'The main window',
      body: [
        'The menu at the top lists the screens your account may use, in a fixed order; less common screens are under "More". Screens marked "not in this version yet" are reserved for upcoming releases.',
        'On the right: the live-connection light (green when connected), the language, the dark/light switch, Settings and your account menu (change password, release notes, this manual, sign out).',
      ],
    },
    {
      id: 'tree',
      title: 'Groups and terminals',
      body: [
        'The dispatch screen shows your fixed groups (with their subgroups) and temporary groups. Each terminal shows its type icon, name, signal and battery while online, a "Killed" or "Stunned" tag when blocked, and when it was last seen while offline. A dot marks terminals that are in that group right now.',
        'Everything updates live: a terminal that comes online turns green without reloading the page. With up to 30 groups, groups appear as tabs; with more, as one scrollable tree.',
        'Use the search box to find a terminal by name or ID, and the switches to hide offline terminals or dispatchers. Click a terminal to see its details in the information panel.',
      ],
    },
    {
      id: 'groups',
      title: 'Temporary and fixed groups',
      body: [
        'Tick terminals in the tree and choose "Temp group" to create a temporary group. Its name is required, unique and at most 20 characters (characters outside the Latin alphabet count as 2).',
        '"New group" creates a fixed group at the top level or under a parent group. Right-click a group to rename it, add a subgroup, delete it or switch your own talk group to it.',
      ],
    },
    {
      id: 'terminals',
      title: 'Managing terminals',
      body: [
        'Right-click a terminal (or use the buttons in the information panel) to rename it, move it to another group, switch its current group remotely, set its avatar, or stun, kill and revive it. Stun, kill and revive always ask for confirmation.',
        'Stun blocks a terminal temporarily, kill blocks it permanently; revive returns it to normal.',
      ],
    },
    {
      id: 'log',
      title: 'Operation log and extra windows',
      body: [
        'The operation log shows the newest events (terminals online and offline, group changes, call settings…) as they happen. The full history with filters is on the Logs screen.',
        '"New window" opens a screen in a separate browser window for a second monitor. Extra windows stay connected on their own.',
      ],
    },
    {
      id: 'voice',
      title: 'Talking (push-to-talk)',
      body: [
        'Hold the space bar, or the PTT button of the voice panel at the bottom right, to talk to your current talk group; release it to listen. The quick key can be changed in Settings and works in extra windows too.',
        'The voice panel lists the open calls: who is talking and for how long, and the measured access time. The talker is highlighted in the tree. A terminal in SOS always gets the floor first; a dispatcher takes the floor from a terminal.',
        'From a terminal’s menu you can call it alone (it rings until it answers) or listen silently to its microphone. "Temp call" calls the ticked terminals; "All call" and "Broadcast" reach every terminal, and a broadcast cannot be answered.',
        'Monitor groups from the group menu to hear several groups at once. When two of them talk together, the audio playback priority in Settings decides which one you hear — the latest talker, your own talk group first, or dispatchers first; the other is shown talking, and one click switches to it.',
        'Voice records lists every talk burst by time range, terminal, group and call type; play it in the list or download it. Standard-definition (SD) recordings can be neither played nor downloaded.',
      ],
    },
    {
      id: 'map',
      title: 'Map and tracks',
      body: [
        'GPS & map shows every terminal that has a position: green online, grey offline, blue talking, red in SOS, faded when the position is old. Markers gather into clusters when you zoom out; point at a cluster to list its terminals, and click a terminal for its details, a call, a message or its track.',
        'The tools measure distances and areas, switch the map provider and theme, and list the terminals in view. When map tiles cannot be reached, a built-in world map is shown instead.',
        'Geofences: draw a polygon, circle or rectangle, name it, choose "in" (alarm on leaving) or "out" (alarm on entering) and assign terminals. Each crossing raises one geofence alarm, with sound.',
        'Track: choose a terminal and a time range within one calendar month to see its route with distance, speeds and stops, and play it back at up to 20 times real speed.',
      ],
    },
    {
      id: 'messages',
      title: 'Messages, tones and media',
      body: [
        'Messages shows one conversation per terminal and per group, with unread counts. Write text or attach photos and files (a bar shows the upload), and watch each message go from sent to delivered. A message to an offline terminal is kept and delivered when it comes back.',
        'Tones are short sound alerts: add one with a sound and an icon, then send it to terminals or a group.',
        'Media cloud shows the photos, videos and recordings that terminals upload, filtered by terminal and time; open one to preview or download it.',
      ],
    },
    {
      id: 'alarms',
      title: 'SOS alarms',
      body: [
        'An SOS interrupts whatever you are doing: an alarm sound loops at the alarm volume and the browser shows a notification, even when the tab is in the background. Acknowledge it to stop the sound; until someone does, it is announced again.',
        'From the alarm you can show the terminal on the map, call it, listen to it, and close the alarm with a remark — the terminal is told to stop alarming. SOS management lists current and past alarms with filters.',
      ],
    },
    {
      id: 'lonework',
      title: 'Lone workers',
      body: [
        'A lone-worker plan checks on one to four terminals at a fixed interval during a work period. Each terminal is asked to check in; if it does not answer in time, goes offline, runs out of battery, has a weak signal or is busy, an alarm with that reason appears. A plan cannot be changed while it runs, is in alarm or is over.',
      ],
    },
    {
      id: 'reports',
      title: 'Reports',
      body: [
        'Reports opens the report screens: SOS alarm charts and lists, lone-worker alarms, geofence alarms, GPS data and message data. Each searches at most one calendar month and exports to Excel.',
      ],
    },
    {
      id: 'settings',
      title: 'Settings, languages and skins',
      body: [
        'Settings holds the quick keys, sounds and volumes, map type, audio playback priority, language and skin. Choices are kept in this browser.',
        'Skins: dark, light, moon silver and phantom black, with the primary colours blue, green, red sea, teal and safety orange. A host with its own branding may set the colour for everyone.',
        'Languages: English, Chinese, Turkish, Spanish, French and Russian. The console starts in your browser language when it is one of these, otherwise in English.',
      ],
    },
  ],
};
