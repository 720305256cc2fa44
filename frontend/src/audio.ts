// Enrolment clips in the browser: recorded from the microphone (getUserMedia, an AudioWorklet
// tapping the raw samples) or decoded from a file, resampled to 16 kHz mono by the Web Audio API's
// own resampler (OfflineAudioContext) and written as 16-bit PCM WAV — the format
// memory/voice/assess and memory/voice/enroll take (custom_components/memory/websocket_voice.py).
// Nothing is stored: clips live in memory (and an object URL for replay) until discarded.

export const SAMPLE_RATE = 16000; // Hz, the speaker encoder's (voice.SAMPLE_RATE)
export const MIN_CLIPS = 2; // recognition.MIN_ENROL_CLIPS
export const MAX_CLIPS = 10; // recognition.MAX_ENROL_CLIPS
export const MAX_CLIP_SECONDS = 30; // recognition.MAX_CLIP_SECONDS: recording stops there
export const MAX_UPLOAD_SECONDS = 90; // websocket_voice.MAX_UPLOAD_SECONDS: one message's audio

/** A clip ready to send: its name, length (s), the WAV (16 kHz mono) and an object URL to replay it. */
export interface Clip {
  name: string;
  seconds: number;
  wav: Uint8Array;
  url: string;
}

/** The microphone can be used here: a secure context (HTTPS or this computer) with media devices. */
export function canRecord(): boolean {
  return (
    typeof window !== "undefined" &&
    window.isSecureContext &&
    !!navigator.mediaDevices?.getUserMedia &&
    typeof AudioWorkletNode !== "undefined"
  );
}

// Posts each render quantum's samples (channels averaged) to the main thread.
const TAP = `class HmTap extends AudioWorkletProcessor {
  process(inputs) {
    const channels = inputs[0];
    if (channels && channels.length) {
      const out = new Float32Array(channels[0].length);
      for (const channel of channels) for (let i = 0; i < out.length; i++) out[i] += channel[i] / channels.length;
      this.port.postMessage(out, [out.buffer]);
    }
    return true;
  }
}
registerProcessor("hm-tap", HmTap);`;

/** One recording from the microphone: start(), then stop() gives the clip's 16 kHz samples. */
export class Recorder {
  private stream?: MediaStream;
  private context?: AudioContext;
  private node?: AudioWorkletNode;
  private chunks: Float32Array[] = [];
  private length = 0;

  /** `onProgress(seconds, level)`: recorded so far and the last chunk's level (dBFS). */
  async start(onProgress: (seconds: number, level: number) => void): Promise<void> {
    // the raw voice: the browser's voice processing changes what the voiceprint is made of
    this.stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
    });
    const context = new AudioContext();
    this.context = context;
    const module = URL.createObjectURL(new Blob([TAP], { type: "application/javascript" }));
    try {
      await context.audioWorklet.addModule(module);
    } finally {
      URL.revokeObjectURL(module);
    }
    // no outputs: the node is pulled by the audio thread without being played back
    this.node = new AudioWorkletNode(context, "hm-tap", { numberOfInputs: 1, numberOfOutputs: 0 });
    this.node.port.onmessage = (e: MessageEvent<Float32Array>) => {
      this.chunks.push(e.data);
      this.length += e.data.length;
      onProgress(this.length / context.sampleRate, levelDbfs(e.data));
    };
    context.createMediaStreamSource(this.stream).connect(this.node);
  }

  /** Ends the recording (microphone released) and returns its samples at SAMPLE_RATE, at most
   * MAX_CLIP_SECONDS. */
  async stop(): Promise<Float32Array> {
    const rate = this.context?.sampleRate ?? SAMPLE_RATE;
    this.release();
    const all = new Float32Array(Math.min(this.length, MAX_CLIP_SECONDS * rate));
    let at = 0;
    for (const chunk of this.chunks) {
      if (at >= all.length) break;
      all.set(chunk.subarray(0, all.length - at), at);
      at += chunk.length;
    }
    this.chunks = [];
    return resample(all, rate);
  }

  /** Drops the recording and releases the microphone. */
  release(): void {
    this.node?.port.close();
    this.node?.disconnect();
    this.stream?.getTracks().forEach((track) => track.stop());
    void this.context?.close();
    this.node = undefined;
    this.stream = undefined;
    this.context = undefined;
  }
}

/** The level (RMS, dB below full scale) of samples in [-1, 1]; -100 for silence. */
export function levelDbfs(samples: Float32Array): number {
  let sum = 0;
  for (const x of samples) sum += x * x;
  const power = samples.length ? sum / samples.length : 0;
  return Math.max(-100, 10 * Math.log10(power + 1e-30));
}

/** `samples` at `rate` Hz as mono SAMPLE_RATE samples (the Web Audio API's resampler). */
export async function resample(samples: Float32Array, rate: number): Promise<Float32Array> {
  if (rate === SAMPLE_RATE || samples.length === 0) return samples;
  const length = Math.max(1, Math.round((samples.length * SAMPLE_RATE) / rate));
  const offline = new OfflineAudioContext(1, length, SAMPLE_RATE);
  const buffer = offline.createBuffer(1, samples.length, rate);
  buffer.copyToChannel(samples as Float32Array<ArrayBuffer>, 0);
  const source = offline.createBufferSource();
  source.buffer = buffer;
  source.connect(offline.destination);
  source.start();
  return (await offline.startRendering()).getChannelData(0);
}

/** An audio file (WAV, or anything the browser decodes) as mono SAMPLE_RATE samples; rejects when
 * the browser cannot decode it. */
export async function decodeFile(file: Blob): Promise<Float32Array> {
  // decodeAudioData resamples to its context's rate
  const decoded = await new OfflineAudioContext(1, 1, SAMPLE_RATE).decodeAudioData(await file.arrayBuffer());
  const out = new Float32Array(decoded.length);
  for (let c = 0; c < decoded.numberOfChannels; c++) {
    const channel = decoded.getChannelData(c);
    for (let i = 0; i < out.length; i++) out[i] += channel[i] / decoded.numberOfChannels;
  }
  return out;
}

/** Mono SAMPLE_RATE samples in [-1, 1] as a 16-bit PCM WAV file. */
export function wavFile(samples: Float32Array): Uint8Array {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (at: number, s: string) => [...s].forEach((ch, i) => view.setUint8(at + i, ch.charCodeAt(0)));
  text(0, "RIFF");
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true); // the fmt chunk's size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, SAMPLE_RATE, true);
  view.setUint32(28, SAMPLE_RATE * 2, true); // bytes per second
  view.setUint16(32, 2, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  text(36, "data");
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) {
    const x = Math.max(-1, Math.min(1, samples[i]));
    view.setInt16(44 + i * 2, x < 0 ? x * 32768 : x * 32767, true);
  }
  return bytes;
}

/** A clip of `samples` (mono, SAMPLE_RATE) named `name`. */
export function makeClip(name: string, samples: Float32Array): Clip {
  const wav = wavFile(samples);
  return {
    name,
    seconds: samples.length / SAMPLE_RATE,
    wav,
    url: URL.createObjectURL(new Blob([wav as Uint8Array<ArrayBuffer>], { type: "audio/wav" })),
  };
}

/** The bytes as base64 (what the WebSocket message carries). */
export function base64(bytes: Uint8Array): string {
  let text = "";
  const step = 0x8000; // String.fromCharCode takes its arguments on the stack
  for (let i = 0; i < bytes.length; i += step) text += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(text);
}
