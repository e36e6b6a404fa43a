// A voice connection's offer made ahead (issue 32: a reload's "Connecting voice…"): the page's RTCPeerConnection and
// its offer are made at boot, while the scripts load and the socket logs in, so the offer goes out the moment the
// socket is online. After a reload the first screen's render takes the main thread right then, and each step of
// the negotiation made then (the ICE servers, the offer, the local description) waited for a slice of it: 700–800
// ms in all. Small and without imports: the console's entry makes the offer before the voice code has loaded.

/** A new PeerConnection with its one audio transceiver and its offer on the way. */
export interface Offer {
  pc: RTCPeerConnection;
  sender: RTCRtpSender;
  /** Settles once the offer is the local description (the candidates gathered so far are in its SDP). */
  described: Promise<void>;
  /** The SDP to send now; the candidates gathered from now on go to trickle. */
  offered: (trickle: (c: RTCIceCandidateInit) => void) => string;
}

export function offerFor(iceServers: RTCIceServer[]): Offer {
  const pc = new RTCPeerConnection({ iceServers });
  const sender = pc.addTransceiver('audio', { direction: 'sendrecv' }).sender;
  let trickle: ((c: RTCIceCandidateInit) => void) | undefined;
  // A candidate gathered before the offer was read is in its SDP (the browser adds it to the local description
  // before it fires the event); only later ones are sent one by one.
  pc.onicecandidate = (e) => {
    if (e.candidate?.candidate) trickle?.(e.candidate.toJSON());
  };
  const described = pc.createOffer().then((o) => pc.setLocalDescription(o));
  described.catch(() => {});
  return {
    pc,
    sender,
    described,
    offered: (t) => {
      trickle = t;
      return pc.localDescription?.sdp ?? '';
    },
  };
}

let early: Offer | undefined;

/**
 * Makes the page's offer now (boot, a signed-in window with push-to-talk), unless this browser learned that the
 * server gives ICE servers (TURN: the offer then waits for them) or the browser has no WebRTC.
 */
export function makeOfferEarly(): void {
  if (early || serverGivesIceServers() || typeof RTCPeerConnection === 'undefined') return;
  try {
    early = offerFor([]);
  } catch {
    /* made when connecting, as before */
  }
}

/** The offer made early, or one made now; undefined when an offer needs the server's ICE servers first. */
export function offerAhead(): Offer | undefined {
  const o = early;
  early = undefined;
  if (o) return o;
  return serverGivesIceServers() ? undefined : offerFor([]);
}

const ICE_SERVERS_KEY = 'tenfour.voice.iceServers';

/** Whether the server gave ICE servers (TURN) the last time this browser asked: an offer made ahead has none. */
function serverGivesIceServers(): boolean {
  try {
    return localStorage.getItem(ICE_SERVERS_KEY) === '1';
  } catch {
    return false;
  }
}

/** Remembers whether the server gives ICE servers, for the next page's offer made ahead; returns them. */
export function rememberIceServers(servers: RTCIceServer[]): RTCIceServer[] {
  try {
    if (servers.length) localStorage.setItem(ICE_SERVERS_KEY, '1');
    else localStorage.removeItem(ICE_SERVERS_KEY);
  } catch {
    /* storage off: asked again next time */
  }
  return servers;
}
