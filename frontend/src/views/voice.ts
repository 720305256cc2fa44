// <hm-voice>: the household's voices — per person whether their voice is enrolled (clips, when),
// enrolment from clips recorded here or uploaded, or from what a satellite heard last, each clip's
// quality and the expected recognition before anything is stored, re-enrolment and forgetting
// (memory/voice/status, assess, enroll, forget); and who spoke the last utterances at each
// satellite and how sure (memory/voice/recognitions: no audio, no words).
import { css, html, nothing, type TemplateResult } from "lit";
import type { ClipAssessment, ClipSource, EnrolmentReport, Recognition, Recognitions, VoiceStatus } from "../api";
import {
  base64,
  canRecord,
  decodeFile,
  makeClip,
  MAX_CLIP_SECONDS,
  MAX_CLIPS,
  MAX_UPLOAD_SECONDS,
  MIN_CLIPS,
  Recorder,
  SAMPLE_RATE,
  type Clip,
} from "../audio";
import { selectField, ViewBase } from "../base";
import type { MemoryConfirm } from "../confirm";
import { define } from "../define";
import { shared } from "../styles";

type Source = "record" | "satellite";
const LEVEL_FLOOR = -60; // dBFS at the left end of the level bar

export class HmVoice extends ViewBase {
  static styles = [
    shared,
    css`
      table {
        width: 100%;
        border-collapse: collapse;
        font-size: 14px;
      }
      th,
      td {
        text-align: left;
        padding: 6px 8px;
        border-bottom: 1px solid var(--divider-color, #e0e0e0);
        vertical-align: top;
      }
      td.actions-cell {
        text-align: right;
        white-space: nowrap;
      }
      .level {
        height: 8px;
        background: var(--divider-color, #e0e0e0);
        border-radius: 4px;
        overflow: hidden;
        flex: 1;
        min-width: 80px;
      }
      .level span {
        display: block;
        height: 100%;
        background: var(--primary-color, #03a9f4);
      }
      audio {
        max-width: 100%;
        height: 36px;
      }
      .ok {
        color: var(--success-color, #43a047);
      }
      .bad {
        color: var(--error-color, #db4437);
      }
      .scroll {
        overflow-x: auto;
      }
    `,
  ];
  static properties = {
    status: { state: true },
    recognitions: { state: true },
    person: { state: true },
    source: { state: true },
    clips: { state: true },
    report: { state: true },
    recording: { state: true },
    elapsed: { state: true },
    level: { state: true },
    satellite: { state: true },
    utterances: { state: true },
    notice: { state: true },
    assessing: { state: true },
  };

  status?: VoiceStatus;
  recognitions?: Recognitions;
  /** The person being enrolled ("" when none). */
  person = "";
  source: Source = "record";
  clips: Clip[] = [];
  /** The assessment of the current clips (or satellite utterances); undefined when not assessed. */
  report?: EnrolmentReport;
  recording = false;
  elapsed = 0;
  level = LEVEL_FLOOR;
  satellite = "";
  utterances = 0;
  notice = "";
  assessing = false;
  private recorder?: Recorder;
  private taken = 0; // clips recorded so far: names "Clip 1", "Clip 2", … stay unique
  private generation = 0; // bumped whenever the clips change: an older assessment is dropped

  protected start(): void {
    void this.load();
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    this.recorder?.release();
    this.clips.forEach((c) => URL.revokeObjectURL(c.url));
  }

  async load(): Promise<void> {
    const api = this.ctx!.api;
    const [status, recognitions] = (await this.run(() => Promise.all([api.voiceStatus(), api.voiceRecognitions()]))) ?? [];
    if (recognitions) this.recognitions = recognitions;
    if (status) {
      this.status = status;
      if (!status.satellites.some((s) => s.satellite === this.satellite)) {
        this.satellite = status.satellites[0]?.satellite ?? "";
      }
    }
  }

  private choose(person: string): void {
    this.person = person;
    this.notice = "";
    this.setClips([]);
  }

  private setClips(clips: Clip[]): void {
    for (const old of this.clips) if (!clips.includes(old)) URL.revokeObjectURL(old.url);
    this.clips = clips;
    this.report = undefined;
    this.generation++;
    if (clips.length) void this.assess();
  }

  private clipSource(): ClipSource | undefined {
    if (this.source === "satellite") {
      return this.satellite ? { satellite: this.satellite, utterances: this.utterances || undefined } : undefined;
    }
    return this.clips.length ? { clips: this.clips.map((c) => ({ name: c.name, wav: base64(c.wav) })) } : undefined;
  }

  /** What the panel refuses before sending (the server's bounds; a too big message would drop
   * the connection): "" when the clips can be sent. */
  private clipsProblem(): string {
    const t = this.ctx!.t;
    if (this.source !== "record") return "";
    if (this.clips.length > MAX_CLIPS) return t("voice.too_many", { max: MAX_CLIPS });
    const total = this.clips.reduce((sum, c) => sum + c.seconds, 0);
    return total > MAX_UPLOAD_SECONDS ? t("voice.too_much_audio", { max: MAX_UPLOAD_SECONDS }) : "";
  }

  private async assess(): Promise<void> {
    const source = this.clipSource();
    if (!source || this.clipsProblem()) return;
    const generation = this.generation;
    this.assessing = true;
    try {
      const report = await this.run(() => this.ctx!.api.assessVoice(this.person, source));
      if (report && generation === this.generation) this.report = report;
    } finally {
      this.assessing = false;
    }
  }

  private async record(): Promise<void> {
    const recorder = new Recorder();
    this.error = "";
    this.elapsed = 0;
    try {
      await recorder.start((seconds, level) => {
        this.elapsed = seconds;
        this.level = level;
        if (seconds >= MAX_CLIP_SECONDS) void this.stop();
      });
    } catch {
      recorder.release();
      this.error = this.ctx!.t("voice.mic_refused");
      return;
    }
    this.recorder = recorder;
    this.recording = true;
  }

  private async stop(): Promise<void> {
    const recorder = this.recorder;
    if (!recorder) return;
    this.recorder = undefined;
    this.recording = false;
    this.level = LEVEL_FLOOR;
    const samples = await recorder.stop();
    this.taken++;
    this.setClips([...this.clips, makeClip(this.ctx!.t("voice.clip_name", { n: this.taken }), samples)]);
  }

  private async upload(e: Event): Promise<void> {
    const input = e.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = "";
    const t = this.ctx!.t;
    const added: Clip[] = [];
    this.error = "";
    for (const file of files) {
      let samples: Float32Array;
      try {
        samples = await decodeFile(file);
      } catch {
        this.error = t("voice.file_unreadable", { file: file.name });
        continue;
      }
      if (samples.length > MAX_CLIP_SECONDS * SAMPLE_RATE) {
        this.error = t("voice.file_too_long", { file: file.name, max: MAX_CLIP_SECONDS });
        continue;
      }
      added.push(makeClip(file.name, samples));
    }
    if (added.length) this.setClips([...this.clips, ...added]);
  }

  private async enroll(): Promise<void> {
    const ctx = this.ctx!;
    const source = this.clipSource();
    if (!source) return;
    const person = this.person;
    const done = await this.run(() => ctx.api.enrollVoice(person, source));
    if (done) {
      this.notice = ctx.t("voice.enrolled_done", { person: ctx.personName(person), n: done.clips });
      this.person = "";
      this.setClips([]);
      await this.load();
    }
  }

  private async forget(person: string): Promise<void> {
    const ctx = this.ctx!;
    const t = ctx.t;
    const name = ctx.personName(person);
    const dialog = this.renderRoot.querySelector("hm-confirm") as MemoryConfirm;
    if (!(await dialog.ask(t("voice.forget_confirm", { person: name }), t("voice.forget"), t("common.cancel")))) return;
    const done = await this.run(() => ctx.api.forgetVoice(person));
    if (done) {
      this.notice = t(done.forgotten ? "voice.forgotten" : "voice.nothing_to_forget", { person: name });
      if (this.person === person) this.choose("");
      await this.load();
    }
  }

  private percent(share: number): string {
    return new Intl.NumberFormat(this.ctx!.language, { style: "percent", maximumFractionDigits: 0 }).format(share);
  }

  /** Whole decibels ("-0" shown as "0"). */
  private decibels(db: number): string {
    return this.ctx!.number(Math.round(db) || 0, 0);
  }

  private renderPeople(status: VoiceStatus): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    const names = new Map(ctx.persons.map((p) => [p.id, p.name]));
    const voices = [...status.voices].sort((a, b) => ctx.personName(a.person).localeCompare(ctx.personName(b.person)));
    return html`<div class="card">
      <h2>${t("voice.title")}</h2>
      <p class="help">${t("voice.help")}</p>
      ${status.recognition ? nothing : html`<p class="error" data-testid="voice-off">${t("voice.off")}</p>`}
      ${voices.length === 0
        ? html`<p class="muted" data-testid="voice-no-persons">${t("voice.no_persons")}</p>`
        : html`<div class="scroll"><table data-testid="voice-people">
            <thead>
              <tr><th>${t("field.person")}</th><th>${t("voice.state")}</th><th></th></tr>
            </thead>
            <tbody>
              ${voices.map(
                (v) => html`<tr data-testid="voice-person" data-person=${v.person} data-enrolled=${v.enrolled ? "true" : "false"}>
                  <td>${names.get(v.person) ?? v.person}</td>
                  <td data-testid="voice-state">
                    ${v.enrolled
                      ? t("voice.enrolled", { n: v.clips, time: ctx.time(v.enrolled_at) })
                      : t("voice.not_enrolled")}
                  </td>
                  <td class="actions-cell">
                    ${status.recognition && names.has(v.person)
                      ? html`<button
                          data-testid="voice-enrol"
                          aria-pressed=${this.person === v.person ? "true" : "false"}
                          ?disabled=${this.busy || this.recording}
                          @click=${() => this.choose(this.person === v.person ? "" : v.person)}
                        >
                          ${v.enrolled ? t("voice.re_enrol") : t("voice.enrol")}
                        </button>`
                      : nothing}
                    ${v.enrolled
                      ? html`<button class="danger" data-testid="voice-forget" ?disabled=${this.busy} @click=${() => this.forget(v.person)}>
                          ${t("voice.forget")}
                        </button>`
                      : nothing}
                  </td>
                </tr>`,
              )}
            </tbody>
          </table></div>`}
    </div>`;
  }

  /** Who was recognised and by which recogniser, or why nobody was. */
  private recognised(r: Recognition): string {
    const ctx = this.ctx!;
    const t = ctx.t;
    if (r.conflict && r.named) {
      return r.named.person
        ? t("voice.named_other", { name: r.named.name, person: ctx.personName(r.voice_person ?? "") })
        : t("voice.named_nobody", { name: r.named.name });
    }
    if (!r.person || !r.recogniser) return t("voice.unknown");
    const by = r.recogniser === "voice" ? t("voice.by.voice") : t(`voice.by.${r.recogniser}`, { name: r.named?.name ?? "" });
    return t("voice.recognised_by", { person: ctx.personName(r.person), by });
  }

  private renderRecognitions(recognitions: Recognitions): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    return html`<div class="card" data-testid="voice-recent">
      <div class="row">
        <h2>${t("voice.recent_title")}</h2>
        <button data-testid="voice-recent-refresh" ?disabled=${this.busy} @click=${() => this.load()}>${t("common.refresh")}</button>
      </div>
      <p class="help">${t("voice.recent_help", { n: recognitions.kept })}</p>
      ${recognitions.satellites.length === 0
        ? html`<p class="muted" data-testid="voice-recent-none">${t("voice.recent_none")}</p>`
        : recognitions.satellites.map(
            (s) => html`<h3>${s.name}</h3>
              <div class="scroll"><table data-testid="voice-recent-satellite" data-satellite=${s.satellite}>
                <thead>
                  <tr>
                    <th>${t("voice.col_time")}</th><th>${t("voice.col_who")}</th><th>${t("voice.col_score")}</th>
                    <th>${t("voice.speech")}</th><th>${t("voice.col_snr")}</th><th>${t("voice.col_strict")}</th>
                  </tr>
                </thead>
                <tbody>
                  ${s.recognitions.map(
                    (r) => html`<tr data-testid="voice-recognition" data-person=${r.person ?? ""} data-recogniser=${r.recogniser ?? ""}>
                      <td>${ctx.time(r.at)}</td>
                      <td data-testid="voice-recognised" class=${r.person ? "ok" : "muted"}>${this.recognised(r)}</td>
                      <td data-testid="voice-score">
                        ${r.score === null || r.threshold === null
                          ? "—"
                          : t("voice.score_value", { score: ctx.number(r.score, 2), threshold: ctx.number(r.threshold, 2) })}
                      </td>
                      <td>${t("voice.seconds", { s: ctx.number(r.speech_seconds, 1) })}</td>
                      <td>${t("voice.snr_value", { db: this.decibels(r.snr_db) })}</td>
                      <td data-testid="voice-strict">${t(r.strict ? "common.yes" : "common.no")}</td>
                    </tr>`,
                  )}
                </tbody>
              </table></div>`,
          )}
    </div>`;
  }

  private renderRecorder(): TemplateResult {
    const t = this.ctx!.t;
    const full = this.clips.length >= MAX_CLIPS;
    const shown = Math.floor(this.elapsed);
    const width = Math.max(0, Math.min(100, ((this.level - LEVEL_FLOOR) / -LEVEL_FLOOR) * 100));
    return html`<p class="help">${t("voice.record_help", { min: MIN_CLIPS, max: MAX_CLIP_SECONDS })}</p>
      ${canRecord()
        ? html`<div class="row">
            ${this.recording
              ? html`<button class="danger" data-testid="voice-stop" @click=${() => this.stop()}>${t("voice.stop")}</button>
                  <span data-testid="voice-elapsed" data-seconds=${shown} aria-live="off">
                    ${t("voice.recording", { s: shown, max: MAX_CLIP_SECONDS })}
                  </span>
                  <div class="level" role="meter" aria-label=${t("voice.level")} aria-valuemin=${LEVEL_FLOOR} aria-valuemax="0" aria-valuenow=${Math.round(this.level)}>
                    <span style="width: ${width}%"></span>
                  </div>`
              : html`<button class="primary" data-testid="voice-record" ?disabled=${full || this.busy} @click=${() => this.record()}>
                  ${t("voice.record")}
                </button>`}
          </div>`
        : html`<p class="muted" data-testid="voice-no-mic">${t("voice.no_mic")}</p>`}
      <label class="field" for="voice-upload"
        >${t("voice.upload")}
        <input
          id="voice-upload"
          data-testid="voice-upload"
          type="file"
          accept=".wav,audio/wav,audio/*"
          multiple
          ?disabled=${full || this.recording}
          @change=${(e: Event) => this.upload(e)}
        />
      </label>
      ${this.clips.length
        ? html`<ul class="plain" data-testid="voice-clips">
            ${this.clips.map((clip, i) => this.renderClip(clip, this.report?.clips[i]))}
          </ul>`
        : nothing}`;
  }

  private renderClip(clip: Clip, assessed: ClipAssessment | undefined): TemplateResult {
    const t = this.ctx!.t;
    return html`<li class="card" data-testid="voice-clip" data-problem=${assessed?.problem ?? ""}>
      <div class="row">
        <strong>${clip.name}</strong>
        <span class="muted">${t("voice.seconds", { s: this.ctx!.number(clip.seconds, 1) })}</span>
      </div>
      <audio controls preload="metadata" src=${clip.url} data-testid="voice-clip-audio"></audio>
      ${assessed ? this.renderAssessment(assessed) : nothing}
      <div class="actions">
        <button
          data-testid="voice-clip-discard"
          ?disabled=${this.recording}
          @click=${() => this.setClips(this.clips.filter((c) => c !== clip))}
        >
          ${t("voice.discard")}
        </button>
      </div>
    </li>`;
  }

  private renderAssessment(a: ClipAssessment): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    const same =
      a.same_voice === null
        ? t("voice.same_unknown")
        : t(a.same_voice ? "voice.same_yes" : "voice.same_no", { score: ctx.number(a.similarity ?? 0, 2) });
    return html`<div data-testid="voice-quality">
      <div data-testid="voice-verdict" class=${a.problem ? "bad" : "ok"}>
        ${a.problem ? ctx.label("voice.problem", a.problem) : t("voice.clip_ok")}
      </div>
      <dl class="fields">
        <dt>${t("voice.speech")}</dt>
        <dd data-testid="voice-speech">${t("voice.seconds", { s: ctx.number(a.active_seconds, 1) })}</dd>
        <dt>${t("voice.level_label")}</dt>
        <dd data-testid="voice-level">
          ${t("voice.level_value", { level: this.decibels(a.level_dbfs), peak: this.decibels(a.peak_dbfs) })}
        </dd>
        <dt>${t("voice.clipping")}</dt>
        <dd data-testid="voice-clipping">${this.percent(a.clipped)}</dd>
        <dt>${t("voice.snr")}</dt>
        <dd data-testid="voice-snr">${t("voice.snr_value", { db: this.decibels(a.snr_db) })}</dd>
        <dt>${t("voice.same")}</dt>
        <dd data-testid="voice-same">${same}</dd>
      </dl>
      ${a.warnings.length
        ? html`<div class="chips">
            ${a.warnings.map((w) => html`<span class="chip warn" data-testid="voice-warning" data-warning=${w}>${ctx.label("voice.warning", w)}</span>`)}
          </div>`
        : nothing}
    </div>`;
  }

  private renderSatellite(status: VoiceStatus): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    const chosen = status.satellites.find((s) => s.satellite === this.satellite);
    if (!chosen) return html`<p class="muted" data-testid="voice-no-satellite">${t("voice.no_satellite")}</p>`;
    const counts = Array.from({ length: Math.max(0, chosen.utterances - MIN_CLIPS + 1) }, (_, i) => String(MIN_CLIPS + i));
    return html`<p class="help">${t("voice.satellite_help")}</p>
      <div class="grid">
        ${selectField(
          "voice-satellite",
          t("voice.satellite"),
          this.satellite,
          status.satellites.map((s) => ({ value: s.satellite, label: t("voice.satellite_option", { name: s.name, n: s.utterances }) })),
          (v) => {
            this.satellite = v;
            this.utterances = 0;
            this.report = undefined;
          },
        )}
        ${selectField(
          "voice-utterances",
          t("voice.utterances"),
          String(this.utterances || chosen.utterances),
          counts.map((n) => ({ value: n, label: n })),
          (v) => {
            this.utterances = Number(v);
            this.report = undefined;
          },
        )}
      </div>
      <div class="actions">
        <button data-testid="voice-assess" ?disabled=${this.busy} @click=${() => this.assess()}>${t("voice.assess")}</button>
      </div>
      ${this.report
        ? html`<ul class="plain" data-testid="voice-clips">
            ${this.report.clips.map(
              (a) => html`<li class="card" data-testid="voice-clip" data-problem=${a.problem ?? ""}>
                <strong>${a.name}</strong>${this.renderAssessment(a)}
              </li>`,
            )}
          </ul>`
        : nothing}`;
  }

  private renderReport(report: EnrolmentReport): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    const e = report.expected;
    return html`<div data-testid="voice-report" data-accepted=${report.accepted ? "true" : "false"}>
      ${e
        ? html`<h3>${t("voice.expected")}</h3>
            <dl class="fields" data-testid="voice-expected">
              <dt>${t("voice.expected_sentence")}</dt>
              <dd data-testid="voice-expected-sentence">${this.percent(e.sentence)}</dd>
              <dt>${t("voice.expected_command")}</dt>
              <dd data-testid="voice-expected-command">${this.percent(e.command)}</dd>
              <dt>${t("voice.expected_noisy")}</dt>
              <dd data-testid="voice-expected-noisy">${this.percent(e.noisy)}</dd>
            </dl>
            <p class="help">${t("voice.expected_help")}</p>`
        : nothing}
      ${report.other_person
        ? html`<p class="error" data-testid="voice-other-person">
            ${t("voice.other_person", { person: ctx.personName(report.other_person) })}
          </p>`
        : nothing}
      ${report.accepted
        ? nothing
        : html`<p class="muted" data-testid="voice-not-ready">${t("voice.not_ready", { min: MIN_CLIPS })}</p>`}
    </div>`;
  }

  private renderEnrolment(status: VoiceStatus): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    const problem = this.clipsProblem();
    const ready = !!this.report?.accepted && !problem && !this.recording && !this.assessing;
    return html`<div class="card" data-testid="voice-enrolment" data-person=${this.person}>
      <h2>${t("voice.enrol_title", { person: ctx.personName(this.person) })}</h2>
      <div class="grid">
        ${selectField(
          "voice-source",
          t("voice.source"),
          this.source,
          [
            { value: "record", label: t("voice.source_record") },
            { value: "satellite", label: t("voice.source_satellite") },
          ],
          (v) => {
            this.source = v as Source;
            this.report = undefined;
            this.generation++;
            if (v === "record" && this.clips.length) void this.assess();
          },
        )}
      </div>
      ${this.source === "record" ? this.renderRecorder() : this.renderSatellite(status)}
      ${problem ? html`<p class="error" role="alert" data-testid="voice-clips-problem">${problem}</p>` : nothing}
      ${this.assessing ? html`<p class="muted" data-testid="voice-assessing">${t("voice.assessing")}</p>` : nothing}
      ${this.report ? this.renderReport(this.report) : nothing}
      <div class="actions">
        <button class="primary" data-testid="voice-enrol-submit" ?disabled=${!ready || this.busy} @click=${() => this.enroll()}>
          ${t("voice.enrol_submit")}
        </button>
        <button data-testid="voice-enrol-cancel" ?disabled=${this.recording} @click=${() => this.choose("")}>
          ${t("common.cancel")}
        </button>
      </div>
    </div>`;
  }

  render() {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const status = this.status;
    return html`<hm-confirm></hm-confirm>
      ${this.notice ? html`<div class="notice" role="status" data-testid="notice">${this.notice}</div>` : nothing}
      ${this.renderError()}
      ${status
        ? html`${this.renderPeople(status)} ${this.person && status.recognition ? this.renderEnrolment(status) : nothing}
          ${this.recognitions?.recognition ? this.renderRecognitions(this.recognitions) : nothing}`
        : this.busy
          ? html`<p class="muted">${ctx.t("common.loading")}</p>`
          : nothing}`;
  }
}

define("hm-voice", HmVoice);
