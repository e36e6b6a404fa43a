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
