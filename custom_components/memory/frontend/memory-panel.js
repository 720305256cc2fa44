var K=globalThis,Y=K.ShadowRoot&&(K.ShadyCSS===void 0||K.ShadyCSS.nativeShadow)&&"adoptedStyleSheets"in Document.prototype&&"replace"in CSSStyleSheet.prototype,he=Symbol(),Ue=new WeakMap,B=class{constructor(i,e,t){if(this._$cssResult$=!0,t!==he)throw Error("CSSResult is not constructable. Use `unsafeCSS` or `css` instead.");this.cssText=i,this.t=e}get styleSheet(){let i=this.o,e=this.t;if(Y&&i===void 0){let t=e!==void 0&&e.length===1;t&&(i=Ue.get(e)),i===void 0&&((this.o=i=new CSSStyleSheet).replaceSync(this.cssText),t&&Ue.set(e,i))}return i}toString(){return this.cssText}},Be=s=>new B(typeof s=="string"?s:s+"",void 0,he),$=(s,...i)=>{let e=s.length===1?s[0]:i.reduce((t,r,n)=>t+(o=>{if(o._$cssResult$===!0)return o.cssText;if(typeof o=="number")return o;throw Error("Value passed to 'css' function must be a 'css' function result: "+o+". Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security.")})(r)+s[n+1],s[0]);return new B(e,s,he)},Fe=(s,i)=>{if(Y)s.adoptedStyleSheets=i.map(e=>e instanceof CSSStyleSheet?e:e.styleSheet);else for(let e of i){let t=document.createElement("style"),r=K.litNonce;r!==void 0&&t.setAttribute("nonce",r),t.textContent=e.cssText,s.appendChild(t)}},me=Y?s=>s:s=>s instanceof CSSStyleSheet?(i=>{let e="";for(let t of i.cssRules)e+=t.cssText;return Be(e)})(s):s;var{is:Rt,defineProperty:Ct,getOwnPropertyDescriptor:Tt,getOwnPropertyNames:Mt,getOwnPropertySymbols:Nt,getPrototypeOf:zt}=Object,X=globalThis,Ge=X.trustedTypes,Lt=Ge?Ge.emptyScript:"",Ot=X.reactiveElementPolyfillSupport,F=(s,i)=>s,fe={toAttribute(s,i){switch(i){case Boolean:s=s?Lt:null;break;case Object:case Array:s=s==null?s:JSON.stringify(s)}return s},fromAttribute(s,i){let e=s;switch(i){case Boolean:e=s!==null;break;case Number:e=s===null?null:Number(s);break;case Object:case Array:try{e=JSON.parse(s)}catch{e=null}}return e}},Je=(s,i)=>!Rt(s,i),We={attribute:!0,type:String,converter:fe,reflect:!1,useDefault:!1,hasChanged:Je};Symbol.metadata??=Symbol("metadata"),X.litPropertyMetadata??=new WeakMap;var S=class extends HTMLElement{static addInitializer(i){this._$Ei(),(this.l??=[]).push(i)}static get observedAttributes(){return this.finalize(),this._$Eh&&[...this._$Eh.keys()]}static createProperty(i,e=We){if(e.state&&(e.attribute=!1),this._$Ei(),this.prototype.hasOwnProperty(i)&&((e=Object.create(e)).wrapped=!0),this.elementProperties.set(i,e),!e.noAccessor){let t=Symbol(),r=this.getPropertyDescriptor(i,t,e);r!==void 0&&Ct(this.prototype,i,r)}}static getPropertyDescriptor(i,e,t){let{get:r,set:n}=Tt(this.prototype,i)??{get(){return this[e]},set(o){this[e]=o}};return{get:r,set(o){let c=r?.call(this);n?.call(this,o),this.requestUpdate(i,c,t)},configurable:!0,enumerable:!0}}static getPropertyOptions(i){return this.elementProperties.get(i)??We}static _$Ei(){if(this.hasOwnProperty(F("elementProperties")))return;let i=zt(this);i.finalize(),i.l!==void 0&&(this.l=[...i.l]),this.elementProperties=new Map(i.elementProperties)}static finalize(){if(this.hasOwnProperty(F("finalized")))return;if(this.finalized=!0,this._$Ei(),this.hasOwnProperty(F("properties"))){let e=this.properties,t=[...Mt(e),...Nt(e)];for(let r of t)this.createProperty(r,e[r])}let i=this[Symbol.metadata];if(i!==null){let e=litPropertyMetadata.get(i);if(e!==void 0)for(let[t,r]of e)this.elementProperties.set(t,r)}this._$Eh=new Map;for(let[e,t]of this.elementProperties){let r=this._$Eu(e,t);r!==void 0&&this._$Eh.set(r,e)}this.elementStyles=this.finalizeStyles(this.styles)}static finalizeStyles(i){let e=[];if(Array.isArray(i)){let t=new Set(i.flat(1/0).reverse());for(let r of t)e.unshift(me(r))}else i!==void 0&&e.push(me(i));return e}static _$Eu(i,e){let t=e.attribute;return t===!1?void 0:typeof t=="string"?t:typeof i=="string"?i.toLowerCase():void 0}constructor(){super(),this._$Ep=void 0,this.isUpdatePending=!1,this.hasUpdated=!1,this._$Em=null,this._$Ev()}_$Ev(){this._$ES=new Promise(i=>this.enableUpdating=i),this._$AL=new Map,this._$E_(),this.requestUpdate(),this.constructor.l?.forEach(i=>i(this))}addController(i){(this._$EO??=new Set).add(i),this.renderRoot!==void 0&&this.isConnected&&i.hostConnected?.()}removeController(i){this._$EO?.delete(i)}_$E_(){let i=new Map,e=this.constructor.elementProperties;for(let t of e.keys())this.hasOwnProperty(t)&&(i.set(t,this[t]),delete this[t]);i.size>0&&(this._$Ep=i)}createRenderRoot(){let i=this.shadowRoot??this.attachShadow(this.constructor.shadowRootOptions);return Fe(i,this.constructor.elementStyles),i}connectedCallback(){this.renderRoot??=this.createRenderRoot(),this.enableUpdating(!0),this._$EO?.forEach(i=>i.hostConnected?.())}enableUpdating(i){}disconnectedCallback(){this._$EO?.forEach(i=>i.hostDisconnected?.())}attributeChangedCallback(i,e,t){this._$AK(i,t)}_$ET(i,e){let t=this.constructor.elementProperties.get(i),r=this.constructor._$Eu(i,t);if(r!==void 0&&t.reflect===!0){let n=(t.converter?.toAttribute!==void 0?t.converter:fe).toAttribute(e,t.type);this._$Em=i,n==null?this.removeAttribute(r):this.setAttribute(r,n),this._$Em=null}}_$AK(i,e){let t=this.constructor,r=t._$Eh.get(i);if(r!==void 0&&this._$Em!==r){let n=t.getPropertyOptions(r),o=typeof n.converter=="function"?{fromAttribute:n.converter}:n.converter?.fromAttribute!==void 0?n.converter:fe;this._$Em=r;let c=o.fromAttribute(e,n.type);this[r]=c??this._$Ej?.get(r)??c,this._$Em=null}}requestUpdate(i,e,t,r=!1,n){if(i!==void 0){let o=this.constructor;if(r===!1&&(n=this[i]),t??=o.getPropertyOptions(i),!((t.hasChanged??Je)(n,e)||t.useDefault&&t.reflect&&n===this._$Ej?.get(i)&&!this.hasAttribute(o._$Eu(i,t))))return;this.C(i,e,t)}this.isUpdatePending===!1&&(this._$ES=this._$EP())}C(i,e,{useDefault:t,reflect:r,wrapped:n},o){t&&!(this._$Ej??=new Map).has(i)&&(this._$Ej.set(i,o??e??this[i]),n!==!0||o!==void 0)||(this._$AL.has(i)||(this.hasUpdated||t||(e=void 0),this._$AL.set(i,e)),r===!0&&this._$Em!==i&&(this._$Eq??=new Set).add(i))}async _$EP(){this.isUpdatePending=!0;try{await this._$ES}catch(e){Promise.reject(e)}let i=this.scheduleUpdate();return i!=null&&await i,!this.isUpdatePending}scheduleUpdate(){return this.performUpdate()}performUpdate(){if(!this.isUpdatePending)return;if(!this.hasUpdated){if(this.renderRoot??=this.createRenderRoot(),this._$Ep){for(let[r,n]of this._$Ep)this[r]=n;this._$Ep=void 0}let t=this.constructor.elementProperties;if(t.size>0)for(let[r,n]of t){let{wrapped:o}=n,c=this[r];o!==!0||this._$AL.has(r)||c===void 0||this.C(r,void 0,n,c)}}let i=!1,e=this._$AL;try{i=this.shouldUpdate(e),i?(this.willUpdate(e),this._$EO?.forEach(t=>t.hostUpdate?.()),this.update(e)):this._$EM()}catch(t){throw i=!1,this._$EM(),t}i&&this._$AE(e)}willUpdate(i){}_$AE(i){this._$EO?.forEach(e=>e.hostUpdated?.()),this.hasUpdated||(this.hasUpdated=!0,this.firstUpdated(i)),this.updated(i)}_$EM(){this._$AL=new Map,this.isUpdatePending=!1}get updateComplete(){return this.getUpdateComplete()}getUpdateComplete(){return this._$ES}shouldUpdate(i){return!0}update(i){this._$Eq&&=this._$Eq.forEach(e=>this._$ET(e,this[e])),this._$EM()}updated(i){}firstUpdated(i){}};S.elementStyles=[],S.shadowRootOptions={mode:"open"},S[F("elementProperties")]=new Map,S[F("finalized")]=new Map,Ot?.({ReactiveElement:S}),(X.reactiveElementVersions??=[]).push("2.1.2");var ve=globalThis,Qe=s=>s,ee=ve.trustedTypes,Ze=ee?ee.createPolicy("lit-html",{createHTML:s=>s}):void 0,be="$lit$",k=`lit$${Math.random().toFixed(9).slice(2)}$`,ye="?"+k,jt=`<${ye}>`,N=document,W=()=>N.createComment(""),J=s=>s===null||typeof s!="object"&&typeof s!="function",_e=Array.isArray,it=s=>_e(s)||typeof s?.[Symbol.iterator]=="function",ge=`[ 	
\f\r]`,G=/<(?:(!--|\/[^a-zA-Z])|(\/?[a-zA-Z][^>\s]*)|(\/?$))/g,Ke=/-->/g,Ye=/>/g,T=RegExp(`>|${ge}(?:([^\\s"'>=/]+)(${ge}*=${ge}*(?:[^ 	
\f\r"'\`<>=]|("|')|))|$)`,"g"),Xe=/'/g,et=/"/g,rt=/^(?:script|style|textarea|title)$/i,$e=s=>(i,...e)=>({_$litType$:s,strings:i,values:e}),a=$e(1),ri=$e(2),si=$e(3),w=Symbol.for("lit-noChange"),l=Symbol.for("lit-nothing"),tt=new WeakMap,M=N.createTreeWalker(N,129);function st(s,i){if(!_e(s)||!s.hasOwnProperty("raw"))throw Error("invalid template strings array");return Ze!==void 0?Ze.createHTML(i):i}var nt=(s,i)=>{let e=s.length-1,t=[],r,n=i===2?"<svg>":i===3?"<math>":"",o=G;for(let c=0;c<e;c++){let d=s[c],p,m,u=-1,f=0;for(;f<d.length&&(o.lastIndex=f,m=o.exec(d),m!==null);)f=o.lastIndex,o===G?m[1]==="!--"?o=Ke:m[1]!==void 0?o=Ye:m[2]!==void 0?(rt.test(m[2])&&(r=RegExp("</"+m[2],"g")),o=T):m[3]!==void 0&&(o=T):o===T?m[0]===">"?(o=r??G,u=-1):m[1]===void 0?u=-2:(u=o.lastIndex-m[2].length,p=m[1],o=m[3]===void 0?T:m[3]==='"'?et:Xe):o===et||o===Xe?o=T:o===Ke||o===Ye?o=G:(o=T,r=void 0);let h=o===T&&s[c+1].startsWith("/>")?" ":"";n+=o===G?d+jt:u>=0?(t.push(p),d.slice(0,u)+be+d.slice(u)+k+h):d+k+(u===-2?c:h)}return[st(s,n+(s[e]||"<?>")+(i===2?"</svg>":i===3?"</math>":"")),t]},Q=class s{constructor({strings:i,_$litType$:e},t){let r;this.parts=[];let n=0,o=0,c=i.length-1,d=this.parts,[p,m]=nt(i,e);if(this.el=s.createElement(p,t),M.currentNode=this.el.content,e===2||e===3){let u=this.el.content.firstChild;u.replaceWith(...u.childNodes)}for(;(r=M.nextNode())!==null&&d.length<c;){if(r.nodeType===1){if(r.hasAttributes())for(let u of r.getAttributeNames())if(u.endsWith(be)){let f=m[o++],h=r.getAttribute(u).split(k),y=/([.?@])?(.*)/.exec(f);d.push({type:1,index:n,name:y[2],strings:h,ctor:y[1]==="."?ie:y[1]==="?"?re:y[1]==="@"?se:L}),r.removeAttribute(u)}else u.startsWith(k)&&(d.push({type:6,index:n}),r.removeAttribute(u));if(rt.test(r.tagName)){let u=r.textContent.split(k),f=u.length-1;if(f>0){r.textContent=ee?ee.emptyScript:"";for(let h=0;h<f;h++)r.append(u[h],W()),M.nextNode(),d.push({type:2,index:++n});r.append(u[f],W())}}}else if(r.nodeType===8)if(r.data===ye)d.push({type:2,index:n});else{let u=-1;for(;(u=r.data.indexOf(k,u+1))!==-1;)d.push({type:7,index:n}),u+=k.length-1}n++}}static createElement(i,e){let t=N.createElement("template");return t.innerHTML=i,t}};function z(s,i,e=s,t){if(i===w)return i;let r=t!==void 0?e._$Co?.[t]:e._$Cl,n=J(i)?void 0:i._$litDirective$;return r?.constructor!==n&&(r?._$AO?.(!1),n===void 0?r=void 0:(r=new n(s),r._$AT(s,e,t)),t!==void 0?(e._$Co??=[])[t]=r:e._$Cl=r),r!==void 0&&(i=z(s,r._$AS(s,i.values),r,t)),i}var te=class{constructor(i,e){this._$AV=[],this._$AN=void 0,this._$AD=i,this._$AM=e}get parentNode(){return this._$AM.parentNode}get _$AU(){return this._$AM._$AU}u(i){let{el:{content:e},parts:t}=this._$AD,r=(i?.creationScope??N).importNode(e,!0);M.currentNode=r;let n=M.nextNode(),o=0,c=0,d=t[0];for(;d!==void 0;){if(o===d.index){let p;d.type===2?p=new q(n,n.nextSibling,this,i):d.type===1?p=new d.ctor(n,d.name,d.strings,this,i):d.type===6&&(p=new ne(n,this,i)),this._$AV.push(p),d=t[++c]}o!==d?.index&&(n=M.nextNode(),o++)}return M.currentNode=N,r}p(i){let e=0;for(let t of this._$AV)t!==void 0&&(t.strings!==void 0?(t._$AI(i,t,e),e+=t.strings.length-2):t._$AI(i[e])),e++}},q=class s{get _$AU(){return this._$AM?._$AU??this._$Cv}constructor(i,e,t,r){this.type=2,this._$AH=l,this._$AN=void 0,this._$AA=i,this._$AB=e,this._$AM=t,this.options=r,this._$Cv=r?.isConnected??!0}get parentNode(){let i=this._$AA.parentNode,e=this._$AM;return e!==void 0&&i?.nodeType===11&&(i=e.parentNode),i}get startNode(){return this._$AA}get endNode(){return this._$AB}_$AI(i,e=this){i=z(this,i,e),J(i)?i===l||i==null||i===""?(this._$AH!==l&&this._$AR(),this._$AH=l):i!==this._$AH&&i!==w&&this._(i):i._$litType$!==void 0?this.$(i):i.nodeType!==void 0?this.T(i):it(i)?this.k(i):this._(i)}O(i){return this._$AA.parentNode.insertBefore(i,this._$AB)}T(i){this._$AH!==i&&(this._$AR(),this._$AH=this.O(i))}_(i){this._$AH!==l&&J(this._$AH)?this._$AA.nextSibling.data=i:this.T(N.createTextNode(i)),this._$AH=i}$(i){let{values:e,_$litType$:t}=i,r=typeof t=="number"?this._$AC(i):(t.el===void 0&&(t.el=Q.createElement(st(t.h,t.h[0]),this.options)),t);if(this._$AH?._$AD===r)this._$AH.p(e);else{let n=new te(r,this),o=n.u(this.options);n.p(e),this.T(o),this._$AH=n}}_$AC(i){let e=tt.get(i.strings);return e===void 0&&tt.set(i.strings,e=new Q(i)),e}k(i){_e(this._$AH)||(this._$AH=[],this._$AR());let e=this._$AH,t,r=0;for(let n of i)r===e.length?e.push(t=new s(this.O(W()),this.O(W()),this,this.options)):t=e[r],t._$AI(n),r++;r<e.length&&(this._$AR(t&&t._$AB.nextSibling,r),e.length=r)}_$AR(i=this._$AA.nextSibling,e){for(this._$AP?.(!1,!0,e);i!==this._$AB;){let t=Qe(i).nextSibling;Qe(i).remove(),i=t}}setConnected(i){this._$AM===void 0&&(this._$Cv=i,this._$AP?.(i))}},L=class{get tagName(){return this.element.tagName}get _$AU(){return this._$AM._$AU}constructor(i,e,t,r,n){this.type=1,this._$AH=l,this._$AN=void 0,this.element=i,this.name=e,this._$AM=r,this.options=n,t.length>2||t[0]!==""||t[1]!==""?(this._$AH=Array(t.length-1).fill(new String),this.strings=t):this._$AH=l}_$AI(i,e=this,t,r){let n=this.strings,o=!1;if(n===void 0)i=z(this,i,e,0),o=!J(i)||i!==this._$AH&&i!==w,o&&(this._$AH=i);else{let c=i,d,p;for(i=n[0],d=0;d<n.length-1;d++)p=z(this,c[t+d],e,d),p===w&&(p=this._$AH[d]),o||=!J(p)||p!==this._$AH[d],p===l?i=l:i!==l&&(i+=(p??"")+n[d+1]),this._$AH[d]=p}o&&!r&&this.j(i)}j(i){i===l?this.element.removeAttribute(this.name):this.element.setAttribute(this.name,i??"")}},ie=class extends L{constructor(){super(...arguments),this.type=3}j(i){this.element[this.name]=i===l?void 0:i}},re=class extends L{constructor(){super(...arguments),this.type=4}j(i){this.element.toggleAttribute(this.name,!!i&&i!==l)}},se=class extends L{constructor(i,e,t,r,n){super(i,e,t,r,n),this.type=5}_$AI(i,e=this){if((i=z(this,i,e,0)??l)===w)return;let t=this._$AH,r=i===l&&t!==l||i.capture!==t.capture||i.once!==t.once||i.passive!==t.passive,n=i!==l&&(t===l||r);r&&this.element.removeEventListener(this.name,this,t),n&&this.element.addEventListener(this.name,this,i),this._$AH=i}handleEvent(i){typeof this._$AH=="function"?this._$AH.call(this.options?.host??this.element,i):this._$AH.handleEvent(i)}},ne=class{constructor(i,e,t){this.element=i,this.type=6,this._$AN=void 0,this._$AM=e,this.options=t}get _$AU(){return this._$AM._$AU}_$AI(i){z(this,i)}},ot={M:be,P:k,A:ye,C:1,L:nt,R:te,D:it,V:z,I:q,H:L,N:re,U:se,B:ie,F:ne},It=ve.litHtmlPolyfillSupport;It?.(Q,q),(ve.litHtmlVersions??=[]).push("3.3.3");var at=(s,i,e)=>{let t=e?.renderBefore??i,r=t._$litPart$;if(r===void 0){let n=e?.renderBefore??null;t._$litPart$=r=new q(i.insertBefore(W(),n),n,void 0,e??{})}return r._$AI(s),r};var we=globalThis,_=class extends S{constructor(){super(...arguments),this.renderOptions={host:this},this._$Do=void 0}createRenderRoot(){let i=super.createRenderRoot();return this.renderOptions.renderBefore??=i.firstChild,i}update(i){let e=this.render();this.hasUpdated||(this.renderOptions.isConnected=this.isConnected),super.update(i),this._$Do=at(e,this.renderRoot,this.renderOptions)}connectedCallback(){super.connectedCallback(),this._$Do?.setConnected(!0)}disconnectedCallback(){super.disconnectedCallback(),this._$Do?.setConnected(!1)}render(){return w}};_._$litElement$=!0,_.finalized=!0,we.litElementHydrateSupport?.({LitElement:_});var qt=we.litElementPolyfillSupport;qt?.({LitElement:_});(we.litElementVersions??=[]).push("4.2.2");function g(s,i){customElements.get(s)||customElements.define(s,i)}var x=$`
  :host {
    display: block;
    color: var(--primary-text-color, #212121);
    font-family: var(--ha-font-family-body, var(--paper-font-body1_-_font-family, Roboto, Noto, sans-serif));
    -webkit-font-smoothing: antialiased;
  }
  * {
    box-sizing: border-box;
  }
  h2 {
    font-size: 20px;
    font-weight: 500;
    margin: 0 0 12px;
  }
  h3 {
    font-size: 16px;
    font-weight: 500;
    margin: 16px 0 8px;
  }
  p {
    margin: 0 0 8px;
  }
  .card {
    background: var(--card-background-color, #fff);
    color: var(--primary-text-color, #212121);
    border: 1px solid var(--divider-color, #e0e0e0);
    border-radius: var(--ha-card-border-radius, 12px);
    padding: 16px;
    margin: 0 0 12px;
  }
  .muted,
  .help {
    color: var(--secondary-text-color, #727272);
  }
  .help {
    font-size: 14px;
  }
  button {
    font: inherit;
    font-size: 14px;
    font-weight: 500;
    min-height: 36px;
    padding: 0 16px;
    border-radius: 18px;
    border: 1px solid var(--divider-color, #e0e0e0);
    background: transparent;
    color: var(--primary-color, #03a9f4);
    cursor: pointer;
  }
  button.primary {
    background: var(--primary-color, #03a9f4);
    border-color: var(--primary-color, #03a9f4);
    color: var(--text-primary-color, #fff);
  }
  button.danger {
    background: var(--error-color, #db4437);
    border-color: var(--error-color, #db4437);
    color: var(--text-primary-color, #fff);
  }
  button.link {
    border: none;
    padding: 0 4px;
    min-height: 0;
    text-decoration: underline;
  }
  button:disabled {
    opacity: 0.5;
    cursor: default;
  }
  button:focus-visible,
  input:focus-visible,
  select:focus-visible,
  textarea:focus-visible,
  summary:focus-visible {
    outline: 2px solid var(--primary-color, #03a9f4);
    outline-offset: 2px;
  }
  input,
  select,
  textarea {
    font: inherit;
    font-size: 14px;
    color: var(--primary-text-color, #212121);
    background: var(--input-fill-color, var(--secondary-background-color, #f5f5f5));
    border: 1px solid var(--divider-color, #e0e0e0);
    border-radius: 4px;
    padding: 6px 8px;
    min-height: 36px;
    width: 100%;
    max-width: 100%;
  }
  input[type="checkbox"] {
    width: 20px;
    min-height: 20px;
    height: 20px;
    margin: 0;
    accent-color: var(--primary-color, #03a9f4);
    flex: none;
  }
  textarea {
    min-height: 72px;
    resize: vertical;
  }
  label.field {
    display: flex;
    flex-direction: column;
    gap: 4px;
    font-size: 14px;
    color: var(--secondary-text-color, #727272);
    min-width: 0;
  }
  label.check {
    display: flex;
    align-items: flex-start;
    gap: 12px;
    padding: 8px 0;
    cursor: pointer;
  }
  .grid {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(160px, 1fr));
    gap: 8px 12px;
  }
  .spaced {
    margin-top: 8px;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    margin-top: 12px;
  }
  .chips {
    display: flex;
    flex-wrap: wrap;
    gap: 4px;
    margin: 6px 0;
  }
  .chip {
    font-size: 12px;
    line-height: 20px;
    padding: 0 8px;
    border-radius: 10px;
    background: var(--secondary-background-color, #f5f5f5);
    color: var(--secondary-text-color, #727272);
    border: 1px solid var(--divider-color, #e0e0e0);
  }
  .chip.warn {
    color: var(--warning-color, #ffa600);
    border-color: var(--warning-color, #ffa600);
  }
  .content {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    font-size: 16px;
  }
  .said-by {
    font-size: 13px;
    color: var(--secondary-text-color, #727272);
  }
  .error {
    color: var(--error-color, #db4437);
    border-left: 4px solid var(--error-color, #db4437);
    padding: 8px 12px;
    margin: 0 0 12px;
    background: var(--card-background-color, #fff);
  }
  .notice {
    border-left: 4px solid var(--success-color, #43a047);
    padding: 8px 12px;
    margin: 0 0 12px;
    background: var(--card-background-color, #fff);
  }
  .counts {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(140px, 1fr));
    gap: 8px;
  }
  .count {
    display: flex;
    flex-direction: column;
    padding: 8px 12px;
    border-radius: 8px;
    background: var(--secondary-background-color, #f5f5f5);
  }
  .count .n {
    font-size: 24px;
    font-weight: 500;
  }
  .count .label {
    font-size: 13px;
    color: var(--secondary-text-color, #727272);
  }
  ul.plain {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  del {
    color: var(--secondary-text-color, #727272);
  }
  dl.fields {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 4px 12px;
    margin: 8px 0 0;
    font-size: 14px;
  }
  dl.fields dt {
    color: var(--secondary-text-color, #727272);
  }
  dl.fields dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  @media (max-width: 450px) {
    .card {
      padding: 12px;
      border-radius: 8px;
    }
    dl.fields {
      grid-template-columns: 1fr;
    }
    dl.fields dd {
      margin-bottom: 4px;
    }
  }
`;var xe=class extends _{constructor(){super(...arguments);this.text="";this.confirmLabel="";this.cancelLabel=""}static{this.styles=[x,$`
      dialog {
        background: var(--card-background-color, #fff);
        color: var(--primary-text-color, #212121);
        border: 1px solid var(--divider-color, #e0e0e0);
        border-radius: var(--ha-dialog-border-radius, 24px);
        padding: 24px;
        max-width: min(440px, calc(100vw - 32px));
      }
      dialog::backdrop {
        background: rgba(0, 0, 0, 0.4);
      }
      .actions {
        justify-content: flex-end;
      }
    `]}static{this.properties={text:{state:!0},confirmLabel:{state:!0},cancelLabel:{state:!0}}}async ask(e,t,r){return this.resolve?.(!1),this.text=e,this.confirmLabel=t,this.cancelLabel=r,await this.updateComplete,this.renderRoot.querySelector("dialog").showModal(),this.renderRoot.querySelector("[data-testid=confirm-cancel]").focus(),new Promise(o=>this.resolve=o)}close(e){this.renderRoot.querySelector("dialog")?.close(),this.resolve?.(e),this.resolve=void 0}render(){return a`<dialog data-testid="confirm-dialog" aria-labelledby="confirm-text" @cancel=${()=>this.close(!1)}>
      <p id="confirm-text" data-testid="confirm-text">${this.text}</p>
      <div class="actions">
        <button data-testid="confirm-cancel" @click=${()=>this.close(!1)}>${this.cancelLabel}</button>
        <button class="danger" data-testid="confirm-ok" @click=${()=>this.close(!0)}>${this.confirmLabel}</button>
      </div>
    </dialog>`}};g("hm-confirm",xe);var ae=["fact","preference","episode","procedure","note"],dt=["private","room","shared","system"],lt=["private","room","shared"],ct=["confirmed","observed","extracted","inferred"],pt=["active","pending","superseded","archived"];function Dt(s){return Object.fromEntries(Object.entries(s).filter(([,i])=>i!==void 0&&i!==""))}var oe=class{constructor(i){this.hass=i}call(i,e={}){return this.hass.callWS({type:i,...Dt(e)})}overview(){return this.call("memory/overview")}list(i,e,t){return this.call("memory/list",{...i,offset:e,limit:t})}search(i,e,t,r,n){return this.call("memory/search",{query:i,person:e,area:t,language:r,limit:n})}get(i){return this.call("memory/get",{memory_id:i})}update(i,e){return this.call("memory/update",{memory_id:i,...e})}pending(){return this.call("memory/pending")}approve(i){return this.call("memory/approve",{memory_id:i})}reject(i){return this.call("memory/reject",{memory_id:i})}forget(i){return this.call("memory/forget",{memory_id:i})}forgetPerson(i){return this.call("memory/forget_person",{person:i})}tombstones(i,e){return this.call("memory/tombstones",{offset:i,limit:e})}liftTombstone(i){return this.call("memory/lift_tombstone",{tombstone_id:i})}consolidate(i){return this.call("memory/consolidate",{dry_run:i})}exportAll(){return this.call("memory/export")}importAll(i){return this.call("memory/import",{data:i})}settings(){return this.call("memory/settings")}updateSettings(i){return this.call("memory/settings/update",i)}areas(){return this.call("config/area_registry/list")}};function ut(s){return Object.values(s.states).filter(i=>i.entity_id.startsWith("person.")).map(i=>({id:i.entity_id,name:String(i.attributes.friendly_name??i.entity_id)})).sort((i,e)=>i.name.localeCompare(e.name))}var Ae="memory";async function Se(s,i=Ae){if(typeof s.loadBackendTranslation!="function")return s.localize;try{let e=await s.loadBackendTranslation("exceptions",i);return typeof e=="function"?e:s.localize}catch{return s.localize}}function ke(s,i,e={},t=Ae){if(!s)return"";try{let r=s(`component.${t}.exceptions.${i}.message`,e);return typeof r=="string"&&!r.startsWith("Translation error")?r:""}catch{return""}}async function ht(s,i){if(s&&i&&typeof i=="object"&&"translation_key"in i){let e=i;if(e.translation_key){let t=e.translation_domain||Ae,r=ke(await Se(s,t),e.translation_key,e.translation_placeholders??{},t);if(r)return r}}return Ht(i)}function Ht(s){return s&&typeof s=="object"&&"message"in s?String(s.message):String(s)}var mt={"panel.title":"Gedächtnis","panel.menu":"Seitenleiste öffnen","panel.sections":"Bereiche des Gedächtnis-Panels","tab.overview":"Übersicht","tab.list":"Erinnerungen","tab.search":"Suche","tab.pending":"Prüfen","tab.forget":"Vergessen","tab.consolidate":"Zusammenführen","tab.transfer":"Export & Import","tab.settings":"Lernen","common.back":"Zurück","common.cancel":"Abbrechen","common.loading":"Wird geladen …","common.refresh":"Aktualisieren","common.save":"Speichern","common.yes":"Ja","common.no":"Nein","kind.fact":"Tatsache","kind.preference":"Vorliebe","kind.episode":"Ereignis","kind.procedure":"Ablauf","kind.note":"Notiz","scope.private":"Privat","scope.room":"Raum","scope.shared":"Haushalt","scope.system":"System","scope.private_of":"Privat für {person}","scope.room_of":"Raum: {room}","provenance.confirmed":"Bestätigt","provenance.observed":"Beobachtet","provenance.extracted":"Aus einem Gespräch gelernt","provenance.inferred":"Vermutet","status.active":"Aktuell","status.pending":"Wartet auf Prüfung","status.superseded":"Ersetzt","status.archived":"Zusammengeführt","source.voice":"Sprache","source.service":"Aktion","source.extraction":"Lernen","source.automation":"Automatisierung","source.admin":"Administrator","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Bedeutung","factor.lexical":"Gleiche Wörter","factor.provenance":"Herkunft","factor.importance":"Wichtigkeit","factor.recency":"Aktualität","factor.translation":"Gleiche Wörter in anderer Sprache","factor.named":"Nennt eine Person","factor.about_speaker":"Über den Sprecher","factor.context":"Gesprächskontext","factor.conversation":"Gleiches Gespräch","factor.newer":"Neuerer Wert","said_by.person_room":"Gesagt von {person} in {room}, {time}","said_by.person":"Gesagt von {person}, {time}","said_by.unknown_room":"Gesagt von einem unbekannten Sprecher in {room}, {time}","said_by.unknown":"Gesagt von einem unbekannten Sprecher, {time}","memory.open":"Öffnen","memory.sensitive":"Sensibel","field.content":"Text","field.kind":"Art","field.scope":"Wer es hören darf","field.owner":"Besitzer","field.person":"Person","field.area":"Bereich","field.provenance":"Herkunft","field.status":"Status","field.language":"Sprache","field.said_by":"Gesagt von","field.sensitive":"Sensibel","field.importance":"Wichtigkeit","field.confidence":"Sicherheit","field.fact":"Tatsache","field.source":"Quelle","field.created":"Gespeichert","field.updated":"Zuletzt geändert","field.valid":"Gültig","field.id":"ID","filter.any":"Alle","filter.person":"Person (Besitzer oder Sprecher)","filter.language_hint":"z. B. de","page.previous":"Zurück","page.next":"Weiter","page.range":"{first}–{last} von {total}","page.size":"Pro Seite","overview.pending":"Warten auf Prüfung","overview.tombstones":"Grabsteine","overview.review":"Jetzt prüfen","overview.by_scope":"Erinnerungen nach Sichtbarkeit","overview.by_provenance":"Erinnerungen nach Herkunft","overview.by_status":"Erinnerungen nach Status","overview.none":"Noch keine.","overview.last_consolidation":"Letzte Zusammenführung","overview.never":"Nie","overview.store":"Speicher","overview.encoder":"Encoder","overview.dimension":"{n} Dimensionen","list.title":"Erinnerungen","list.filters":"Filter","list.empty":"Keine Erinnerung passt zu diesen Filtern.","search.title":"Als Sprecher suchen","search.help":"Zeigt, was der Assistent für diese Person in diesem Raum abrufen würde, und warum jede Erinnerung auftaucht.","search.query":"Frage oder Wörter","search.as_person":"Sprecher","search.unknown_speaker":"Unbekannter Sprecher","search.in_area":"Raum","search.no_area":"Kein Raum","search.limit":"Ergebnisse","search.submit":"Suchen","search.empty":"Nichts, was dieser Sprecher hören würde, passt.","search.score":"Punktzahl {score} · Ähnlichkeit {similarity}","search.why":"Warum sie auftaucht","search.outdated":"Ein neuerer Wert hat diesen ersetzt.","search.open_newer":"Neueren Wert öffnen","search.withheld_title":"Diesem Sprecher vorenthalten","search.withheld_help":"Gefunden, aber vertraulich: Der Assistent würde diese Erinnerungen diesem Sprecher nicht sagen (ein unbekannter Sprecher hört keinen Code und keine Zahlungs- oder Gesundheitsangabe).","search.withheld_mark":"Vorenthalten: wird diesem Sprecher nicht gesagt","detail.title":"Erinnerung","detail.said_by":"Wer es gesagt hat","detail.edit":"Bearbeiten","detail.edit_help":"Ein geänderter Text wird wie eine neue Erinnerung geprüft: Geheimnisse werden abgelehnt.","detail.choose":"Auswählen …","detail.saved":"Gespeichert.","detail.forget":"Vergessen","detail.forget_confirm":"„{content}“ vergessen? Der Text wird gelöscht, und ein Grabstein verhindert, dass er wieder gelernt wird.","detail.forgotten":"Vergessen.","history.title":"Verlauf","history.single":"Diese Erinnerung wurde nie geändert.","history.window":"von {from} bis {to}","history.since":"seit {from}","pending.title":"Wartet auf Prüfung","pending.help":"Aus Gesprächen gelernt, während die Prüfung vor der Nutzung eingeschaltet ist. Bestätigte Erinnerungen werden ab dann abgerufen; abgelehnte werden vergessen und nicht wieder gelernt.","pending.empty":"Nichts wartet auf Prüfung.","pending.replaces":"Ersetzt eine gespeicherte Tatsache:","pending.approve":"Bestätigen","pending.reject":"Ablehnen","pending.approved":"Bestätigt.","pending.rejected":"Abgelehnt und vergessen.","forget.person_title":"Eine Person vergessen","forget.person_help":"Vergisst alle privaten Erinnerungen der Person. Raum- und Haushalts-Erinnerungen bleiben, aber nicht mehr als von ihr gesagt. Das lässt sich nicht rückgängig machen.","forget.person_submit":"Erinnerungen der Person vergessen","forget.person_confirm":"Alle privaten Erinnerungen von {person} vergessen? Das lässt sich nicht rückgängig machen.","forget.person_done":"Vergessene private Erinnerungen von {person}: {n}","tombstones.title":"Grabsteine","tombstones.help":"Ein Grabstein verhindert, dass eine vergessene Erinnerung wieder gelernt wird. Er enthält keinen Text. Wird er aufgehoben, kann die Erinnerung wieder gelernt werden.","tombstones.empty":"Keine Grabsteine.","tombstones.created":"Vergessen am {time}","tombstones.lifted_at":"aufgehoben am {time}","tombstones.lift":"Aufheben","tombstones.lifted":"Grabstein aufgehoben.","consolidate.title":"Zusammenführen","consolidate.help":"Hält eine aktuelle Erinnerung pro Tatsache: Wiederholungen werden zusammengeführt, ältere Werte werden Verlauf, ungenutzte Vermutungen entfernt. Läuft auch einmal am Tag. Erst ansehen, was es tun würde, dann ausführen.","consolidate.dry_run":"Zeigen, was es tun würde","consolidate.run":"Jetzt ausführen","consolidate.plan_title":"Was es tun würde","consolidate.done_title":"Erledigt","consolidate.nothing":"Nichts zu tun.","consolidate.merged":"Zusammengeführt","consolidate.superseded":"Ersetzt","consolidate.pruned":"Entfernte Vermutungen","consolidate.judged":"Von der KI-Aufgabe geklärt","consolidate.conflicts":"Mögliche Konflikte","consolidate.changes_title":"Änderungen","consolidate.would_merge":"Zusammenführen","consolidate.would_supersede":"Ersetzen","consolidate.prune_title":"Zu entfernende Vermutungen","consolidate.conflicts_title":"Mögliche Konflikte, die eine Person klären muss","consolidate.similarity":"Ähnlichkeit {value}","transfer.export_title":"Export","transfer.export_help":"Lädt alle Erinnerungen mit Verlauf und Herkunft als lesbare JSON-Datei herunter. Vergessene Erinnerungen erscheinen nur als Anzahl.","transfer.export":"Export herunterladen","transfer.exported":"Exportierte Erinnerungen: {n} ({file})","transfer.import_title":"Import","transfer.import_help":"Liest eine Exportdatei. Jede Erinnerung wird wie eine neue geprüft; Doppelte werden übersprungen, nichts wird überschrieben.","transfer.choose_file":"Exportdatei (JSON)","transfer.invalid_json":"{file} ist keine JSON-Datei.","transfer.created":"Importiert: {n}","transfer.duplicates":"Schon bekannt: {n}","transfer.rejected":"Abgelehnt: {n}","transfer.rejected_item":"Erinnerung {index}: {reason}","transfer.reason.conflict":"für diese Tatsache ist hier schon ein anderer Wert gespeichert; nichts wurde überschrieben","transfer.reason.forgotten":"sie wurde hier vergessen und bleibt vergessen","transfer.reason.sensitive_content":"automatisch gelernt, enthält aber einen Code oder eine Zahlungs- oder Gesundheitsangabe","transfer.reason.other":"nicht angenommen: ein Feld fehlt, ist ungültig oder hier unbekannt","settings.title":"Lernen","settings.help":"Dieselben Optionen wie im Optionsdialog der Integration.","settings.learning":"Aus Gesprächen lernen","settings.learning_help":"Der Gedächtnis-Assistent lernt selbstständig Erinnerungen aus Gesprächen. Gesprächsprotokolle werden in jedem Fall gespeichert.","settings.opt_out":"Ausgenommene Bereiche","settings.opt_out_help":"Aus Gesprächen in diesen Bereichen wird nie gelernt.","settings.no_areas":"Es sind keine Bereiche eingerichtet.","settings.review":"Gelernte Erinnerungen vor der Nutzung prüfen","settings.review_help":"Gelernte Erinnerungen warten hier und werden nie abgerufen, bis sie bestätigt oder abgelehnt werden.","settings.cloud":"Persönliche Erinnerungen an ein Cloud-Modell erlauben","settings.cloud_help":"Aus: Gespräche einer erkannten Person werden nie an eine Cloud-KI-Aufgabe gesendet. Sensible Wörter werden nie gesendet, egal was hier steht.","settings.retention":"Aufbewahrung der Gesprächsprotokolle (Tage)","settings.retention_help":"Gespeicherte Gesprächsprotokolle, die älter sind, werden einmal täglich gelöscht ({min} bis {max}).","settings.retention_invalid":"{field}: Gib eine ganze Zahl von Tagen zwischen {min} und {max} ein.","settings.reset":"Änderungen verwerfen","settings.saved":"Gespeichert."};var Ee={"panel.title":"Memory","panel.menu":"Open the sidebar","panel.sections":"Sections of the memory panel","tab.overview":"Overview","tab.list":"Memories","tab.search":"Search","tab.pending":"Review","tab.forget":"Forget","tab.consolidate":"Consolidate","tab.transfer":"Export & import","tab.settings":"Learning","common.back":"Back","common.cancel":"Cancel","common.loading":"Loading…","common.refresh":"Refresh","common.save":"Save","common.yes":"Yes","common.no":"No","kind.fact":"Fact","kind.preference":"Preference","kind.episode":"Event","kind.procedure":"How-to","kind.note":"Note","scope.private":"Private","scope.room":"Room","scope.shared":"Household","scope.system":"System","scope.private_of":"Private to {person}","scope.room_of":"Room: {room}","provenance.confirmed":"Confirmed","provenance.observed":"Observed","provenance.extracted":"Learned from a conversation","provenance.inferred":"Guessed","status.active":"Current","status.pending":"Awaiting review","status.superseded":"Replaced","status.archived":"Merged","source.voice":"Voice","source.service":"Action","source.extraction":"Learning","source.automation":"Automation","source.admin":"Administrator","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Meaning","factor.lexical":"Matching words","factor.provenance":"Provenance","factor.importance":"Importance","factor.recency":"Recency","factor.translation":"Matching words across languages","factor.named":"Names a person","factor.about_speaker":"About the speaker","factor.context":"Conversation context","factor.conversation":"Same conversation","factor.newer":"Newer value","said_by.person_room":"Said by {person} in {room}, {time}","said_by.person":"Said by {person}, {time}","said_by.unknown_room":"Said by an unknown speaker in {room}, {time}","said_by.unknown":"Said by an unknown speaker, {time}","memory.open":"Open","memory.sensitive":"Sensitive","field.content":"Text","field.kind":"Kind","field.scope":"Who may hear it","field.owner":"Owner","field.person":"Person","field.area":"Area","field.provenance":"Provenance","field.status":"Status","field.language":"Language","field.said_by":"Said by","field.sensitive":"Sensitive","field.importance":"Importance","field.confidence":"Confidence","field.fact":"Fact","field.source":"Source","field.created":"Saved","field.updated":"Last changed","field.valid":"Valid","field.id":"ID","filter.any":"Any","filter.person":"Person (owner or speaker)","filter.language_hint":"e.g. en","page.previous":"Previous","page.next":"Next","page.range":"{first}–{last} of {total}","page.size":"Per page","overview.pending":"Awaiting review","overview.tombstones":"Tombstones","overview.review":"Review now","overview.by_scope":"Memories by who may hear them","overview.by_provenance":"Memories by provenance","overview.by_status":"Memories by status","overview.none":"None yet.","overview.last_consolidation":"Last consolidation","overview.never":"Never","overview.store":"Store","overview.encoder":"Encoder","overview.dimension":"{n} dimensions","list.title":"Memories","list.filters":"Filters","list.empty":"No memories match these filters.","search.title":"Search as a speaker","search.help":"Shows what the assistant would recall for this person in this room, and why each memory surfaced.","search.query":"Question or words","search.as_person":"Speaker","search.unknown_speaker":"Unknown speaker","search.in_area":"Room","search.no_area":"No room","search.limit":"Results","search.submit":"Search","search.empty":"Nothing this speaker would hear matches.","search.score":"Score {score} · similarity {similarity}","search.why":"Why it surfaced","search.outdated":"A newer value has replaced this one.","search.open_newer":"Open the newer value","search.withheld_title":"Kept from this speaker","search.withheld_help":"Recalled, but sensitive: the assistant would not tell these to this speaker (an unknown speaker hears no code, payment or health detail).","search.withheld_mark":"Withheld: not told to this speaker","detail.title":"Memory","detail.said_by":"Who said it","detail.edit":"Edit","detail.edit_help":"A changed text is checked like a new memory: secrets are refused.","detail.choose":"Choose…","detail.saved":"Saved.","detail.forget":"Forget","detail.forget_confirm":"Forget “{content}”? Its text is deleted, and a tombstone keeps it from being learned again.","detail.forgotten":"Forgotten.","history.title":"History","history.single":"This memory has never changed.","history.window":"from {from} until {to}","history.since":"since {from}","pending.title":"Awaiting review","pending.help":"Learned from conversations while review before use is on. Approved memories are recalled from then on; rejected ones are forgotten and not learned again.","pending.empty":"Nothing awaits review.","pending.replaces":"Replaces a saved fact:","pending.approve":"Approve","pending.reject":"Reject","pending.approved":"Approved.","pending.rejected":"Rejected and forgotten.","forget.person_title":"Forget a person","forget.person_help":"Forgets every private memory of the person. Room and household memories stay, no longer recorded as said by them. This cannot be undone.","forget.person_submit":"Forget the person's memories","forget.person_confirm":"Forget every private memory of {person}? This cannot be undone.","forget.person_done":"Private memories of {person} forgotten: {n}","tombstones.title":"Tombstones","tombstones.help":"A tombstone keeps a forgotten memory from being learned again. It holds no text. Lifting it lets the memory be learned again.","tombstones.empty":"No tombstones.","tombstones.created":"Forgotten {time}","tombstones.lifted_at":"lifted {time}","tombstones.lift":"Lift","tombstones.lifted":"Tombstone lifted.","consolidate.title":"Consolidation","consolidate.help":"Keeps one current memory per fact: restatements are merged, older values become history, unused guesses are removed. It also runs once a day. See what it would do first, then run it.","consolidate.dry_run":"Show what it would do","consolidate.run":"Run now","consolidate.plan_title":"What it would do","consolidate.done_title":"Done","consolidate.nothing":"Nothing to do.","consolidate.merged":"Merged","consolidate.superseded":"Replaced","consolidate.pruned":"Removed guesses","consolidate.judged":"Settled by the AI task","consolidate.conflicts":"Possible conflicts","consolidate.changes_title":"Changes","consolidate.would_merge":"Merge","consolidate.would_supersede":"Replace","consolidate.prune_title":"Guesses to remove","consolidate.conflicts_title":"Possible conflicts left for a person","consolidate.similarity":"similarity {value}","transfer.export_title":"Export","transfer.export_help":"Downloads every memory with its history and provenance as a JSON file you can read. Forgotten memories appear only as counts.","transfer.export":"Download export","transfer.exported":"Exported memories: {n} ({file})","transfer.import_title":"Import","transfer.import_help":"Reads an export file. Every memory is checked like a new one; duplicates are skipped and nothing is overwritten.","transfer.choose_file":"Export file (JSON)","transfer.invalid_json":"{file} is not a JSON file.","transfer.created":"Imported: {n}","transfer.duplicates":"Already known: {n}","transfer.rejected":"Refused: {n}","transfer.rejected_item":"Memory {index}: {reason}","transfer.reason.conflict":"a different value of this fact is already saved here; nothing was overwritten","transfer.reason.forgotten":"it was forgotten here and stays forgotten","transfer.reason.sensitive_content":"learned automatically, yet it holds a code, payment or health detail","transfer.reason.other":"not accepted: a field is missing, not valid or unknown here","settings.title":"Learning","settings.help":"The same options as the integration's options dialog.","settings.learning":"Learn from conversations","settings.learning_help":"The memory assistant learns memories from conversations by itself. Conversation transcripts are stored either way.","settings.opt_out":"Areas that opt out","settings.opt_out_help":"Conversations in these areas are never learned from.","settings.no_areas":"No areas are set up.","settings.review":"Review learned memories before use","settings.review_help":"Learned memories wait here and are never recalled until approved or rejected.","settings.cloud":"Allow personal memories to a cloud model","settings.cloud_help":"Off: a recognised person's conversations are never sent to a cloud AI task. Sensitive words are never sent, whatever this says.","settings.retention":"Transcript retention (days)","settings.retention_help":"Stored conversation transcripts older than this are deleted once a day ({min} to {max}).","settings.retention_invalid":"{field}: enter a whole number of days from {min} to {max}.","settings.reset":"Undo changes","settings.saved":"Saved."};var ft={"panel.title":"Memoria","panel.menu":"Abrir la barra lateral","panel.sections":"Secciones del panel Memoria","tab.overview":"Resumen","tab.list":"Recuerdos","tab.search":"Búsqueda","tab.pending":"Por revisar","tab.forget":"Olvidar","tab.consolidate":"Consolidar","tab.transfer":"Exportar e importar","tab.settings":"Aprendizaje","common.back":"Volver","common.cancel":"Cancelar","common.loading":"Cargando…","common.refresh":"Actualizar","common.save":"Guardar","common.yes":"Sí","common.no":"No","kind.fact":"Hecho","kind.preference":"Preferencia","kind.episode":"Episodio","kind.procedure":"Procedimiento","kind.note":"Nota","scope.private":"Privado","scope.room":"Habitación","scope.shared":"Hogar","scope.system":"Sistema","scope.private_of":"Privado de {person}","scope.room_of":"Habitación: {room}","provenance.confirmed":"Confirmado","provenance.observed":"Observado","provenance.extracted":"Aprendido de una conversación","provenance.inferred":"Supuesto","status.active":"Actual","status.pending":"Pendiente de revisión","status.superseded":"Reemplazado","status.archived":"Fusionado","source.voice":"Voz","source.service":"Acción","source.extraction":"Aprendizaje","source.automation":"Automatización","source.admin":"Administrador","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Significado","factor.lexical":"Palabras en común","factor.provenance":"Procedencia","factor.importance":"Importancia","factor.recency":"Actualidad","factor.translation":"Palabras en común en otro idioma","factor.named":"Nombra a una persona","factor.about_speaker":"Sobre quien habla","factor.context":"Contexto de la conversación","factor.conversation":"Misma conversación","factor.newer":"Valor más reciente","said_by.person_room":"Dicho por {person} en {room}, {time}","said_by.person":"Dicho por {person}, {time}","said_by.unknown_room":"Dicho por un hablante desconocido en {room}, {time}","said_by.unknown":"Dicho por un hablante desconocido, {time}","memory.open":"Abrir","memory.sensitive":"Sensible","field.content":"Texto","field.kind":"Tipo","field.scope":"Quién puede oírlo","field.owner":"Propietario","field.person":"Persona","field.area":"Área","field.provenance":"Procedencia","field.status":"Estado","field.language":"Idioma","field.said_by":"Dicho por","field.sensitive":"Sensible","field.importance":"Importancia","field.confidence":"Confianza","field.fact":"Hecho","field.source":"Origen","field.created":"Guardado","field.updated":"Último cambio","field.valid":"Válido","field.id":"ID","filter.any":"Todos","filter.person":"Persona (propietario o hablante)","filter.language_hint":"p. ej. es","page.previous":"Anterior","page.next":"Siguiente","page.range":"{first}–{last} de {total}","page.size":"Por página","overview.pending":"Pendientes de revisión","overview.tombstones":"Lápidas","overview.review":"Revisar ahora","overview.by_scope":"Recuerdos según quién puede oírlos","overview.by_provenance":"Recuerdos por procedencia","overview.by_status":"Recuerdos por estado","overview.none":"Todavía ninguno.","overview.last_consolidation":"Última consolidación","overview.never":"Nunca","overview.store":"Almacén","overview.encoder":"Codificador","overview.dimension":"{n} dimensiones","list.title":"Recuerdos","list.filters":"Filtros","list.empty":"Ningún recuerdo coincide con estos filtros.","search.title":"Buscar como hablante","search.help":"Muestra lo que el asistente recuperaría para esta persona en esta habitación, y por qué aparece cada recuerdo.","search.query":"Pregunta o palabras","search.as_person":"Hablante","search.unknown_speaker":"Hablante desconocido","search.in_area":"Habitación","search.no_area":"Ninguna habitación","search.limit":"Resultados","search.submit":"Buscar","search.empty":"Nada de lo que este hablante oiría coincide.","search.score":"Puntuación {score} · similitud {similarity}","search.why":"Por qué aparece","search.outdated":"Un valor más reciente ha reemplazado a este.","search.open_newer":"Abrir el valor más reciente","search.withheld_title":"Ocultos a quien habla","search.withheld_help":"Encontrados, pero confidenciales: el asistente no se los diría a quien habla (una persona desconocida no oye códigos ni datos de pago o de salud).","search.withheld_mark":"Oculto: no se le dice a quien habla","detail.title":"Recuerdo","detail.said_by":"Quién lo dijo","detail.edit":"Editar","detail.edit_help":"Un texto cambiado se comprueba como un recuerdo nuevo: los secretos se rechazan.","detail.choose":"Elegir…","detail.saved":"Guardado.","detail.forget":"Olvidar","detail.forget_confirm":"¿Olvidar «{content}»? Su texto se borra y una lápida impide que se vuelva a aprender.","detail.forgotten":"Olvidado.","history.title":"Historial","history.single":"Este recuerdo nunca ha cambiado.","history.window":"del {from} al {to}","history.since":"desde el {from}","pending.title":"Pendientes de revisión","pending.help":"Aprendidos de conversaciones mientras la revisión antes del uso está activada. Los recuerdos aprobados se recuperan desde entonces; los rechazados se olvidan y no se vuelven a aprender.","pending.empty":"Nada espera revisión.","pending.replaces":"Reemplaza un hecho guardado:","pending.approve":"Aprobar","pending.reject":"Rechazar","pending.approved":"Aprobado.","pending.rejected":"Rechazado y olvidado.","forget.person_title":"Olvidar a una persona","forget.person_help":"Olvida todos los recuerdos privados de la persona. Los recuerdos de habitación y del hogar se quedan, sin constar ya como dichos por ella. No se puede deshacer.","forget.person_submit":"Olvidar los recuerdos de la persona","forget.person_confirm":"¿Olvidar todos los recuerdos privados de {person}? No se puede deshacer.","forget.person_done":"Recuerdos privados de {person} olvidados: {n}","tombstones.title":"Lápidas","tombstones.help":"Una lápida impide que un recuerdo olvidado se vuelva a aprender. No contiene texto. Quitarla permite aprenderlo de nuevo.","tombstones.empty":"No hay lápidas.","tombstones.created":"Olvidado el {time}","tombstones.lifted_at":"quitada el {time}","tombstones.lift":"Quitar","tombstones.lifted":"Lápida quitada.","consolidate.title":"Consolidación","consolidate.help":"Mantiene un solo recuerdo actual por hecho: las reformulaciones se fusionan, los valores antiguos pasan al historial y las suposiciones sin usar se eliminan. También se ejecuta una vez al día. Mira primero lo que haría y luego ejecútala.","consolidate.dry_run":"Mostrar lo que haría","consolidate.run":"Ejecutar ahora","consolidate.plan_title":"Lo que haría","consolidate.done_title":"Hecho","consolidate.nothing":"Nada que hacer.","consolidate.merged":"Fusionados","consolidate.superseded":"Reemplazados","consolidate.pruned":"Suposiciones eliminadas","consolidate.judged":"Resueltos por la Tarea de IA","consolidate.conflicts":"Posibles conflictos","consolidate.changes_title":"Cambios","consolidate.would_merge":"Fusionar","consolidate.would_supersede":"Reemplazar","consolidate.prune_title":"Suposiciones que se eliminarían","consolidate.conflicts_title":"Posibles conflictos que debe resolver una persona","consolidate.similarity":"similitud {value}","transfer.export_title":"Exportar","transfer.export_help":"Descarga todos los recuerdos con su historial y procedencia en un archivo JSON legible. Los recuerdos olvidados solo aparecen como recuentos.","transfer.export":"Descargar la exportación","transfer.exported":"Recuerdos exportados: {n} ({file})","transfer.import_title":"Importar","transfer.import_help":"Lee un archivo de exportación. Cada recuerdo se comprueba como uno nuevo; los duplicados se omiten y nada se sobrescribe.","transfer.choose_file":"Archivo de exportación (JSON)","transfer.invalid_json":"{file} no es un archivo JSON.","transfer.created":"Importados: {n}","transfer.duplicates":"Ya conocidos: {n}","transfer.rejected":"Rechazados: {n}","transfer.rejected_item":"Recuerdo {index}: {reason}","transfer.reason.conflict":"aquí ya hay guardado otro valor de este hecho; no se sobrescribió nada","transfer.reason.forgotten":"aquí se olvidó y sigue olvidado","transfer.reason.sensitive_content":"aprendido automáticamente, pero contiene un código o un dato de pago o de salud","transfer.reason.other":"no aceptado: falta un campo, no es válido o aquí es desconocido","settings.title":"Aprendizaje","settings.help":"Las mismas opciones que el cuadro de opciones de la integración.","settings.learning":"Aprender de las conversaciones","settings.learning_help":"El asistente de memoria aprende recuerdos de las conversaciones por sí mismo. Las transcripciones de las conversaciones se guardan en cualquier caso.","settings.opt_out":"Áreas excluidas","settings.opt_out_help":"De las conversaciones en estas áreas nunca se aprende.","settings.no_areas":"No hay áreas configuradas.","settings.review":"Revisar los recuerdos aprendidos antes de usarlos","settings.review_help":"Los recuerdos aprendidos esperan aquí y nunca se recuperan hasta que se aprueban o se rechazan.","settings.cloud":"Permitir recuerdos personales a un modelo en la nube","settings.cloud_help":"Desactivado: las conversaciones de una persona reconocida nunca se envían a una Tarea de IA en la nube. Las palabras sensibles nunca se envían, diga lo que diga esta opción.","settings.retention":"Conservación de las transcripciones (días)","settings.retention_help":"Las transcripciones guardadas más antiguas se eliminan una vez al día (de {min} a {max}).","settings.retention_invalid":"{field}: introduce un número entero de días entre {min} y {max}.","settings.reset":"Descartar los cambios","settings.saved":"Guardado."};var gt={"panel.title":"Mémoire","panel.menu":"Ouvrir la barre latérale","panel.sections":"Sections du panneau Mémoire","tab.overview":"Vue d'ensemble","tab.list":"Souvenirs","tab.search":"Recherche","tab.pending":"À vérifier","tab.forget":"Oublier","tab.consolidate":"Consolider","tab.transfer":"Export et import","tab.settings":"Apprentissage","common.back":"Retour","common.cancel":"Annuler","common.loading":"Chargement…","common.refresh":"Actualiser","common.save":"Enregistrer","common.yes":"Oui","common.no":"Non","kind.fact":"Fait","kind.preference":"Préférence","kind.episode":"Épisode","kind.procedure":"Procédure","kind.note":"Note","scope.private":"Privé","scope.room":"Pièce","scope.shared":"Foyer","scope.system":"Système","scope.private_of":"Privé pour {person}","scope.room_of":"Pièce : {room}","provenance.confirmed":"Confirmé","provenance.observed":"Observé","provenance.extracted":"Appris d'une conversation","provenance.inferred":"Supposé","status.active":"Actuel","status.pending":"En attente de vérification","status.superseded":"Remplacé","status.archived":"Fusionné","source.voice":"Voix","source.service":"Action","source.extraction":"Apprentissage","source.automation":"Automatisation","source.admin":"Administrateur","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Sens","factor.lexical":"Mots communs","factor.provenance":"Provenance","factor.importance":"Importance","factor.recency":"Fraîcheur","factor.translation":"Mots communs dans une autre langue","factor.named":"Nomme une personne","factor.about_speaker":"Concerne l'interlocuteur","factor.context":"Contexte de la conversation","factor.conversation":"Même conversation","factor.newer":"Valeur plus récente","said_by.person_room":"Dit par {person} dans {room}, {time}","said_by.person":"Dit par {person}, {time}","said_by.unknown_room":"Dit par un interlocuteur inconnu dans {room}, {time}","said_by.unknown":"Dit par un interlocuteur inconnu, {time}","memory.open":"Ouvrir","memory.sensitive":"Sensible","field.content":"Texte","field.kind":"Type","field.scope":"Qui peut l'entendre","field.owner":"Propriétaire","field.person":"Personne","field.area":"Zone","field.provenance":"Provenance","field.status":"État","field.language":"Langue","field.said_by":"Dit par","field.sensitive":"Sensible","field.importance":"Importance","field.confidence":"Confiance","field.fact":"Fait","field.source":"Source","field.created":"Enregistré","field.updated":"Dernière modification","field.valid":"Valable","field.id":"Identifiant","filter.any":"Tous","filter.person":"Personne (propriétaire ou interlocuteur)","filter.language_hint":"p. ex. fr","page.previous":"Précédent","page.next":"Suivant","page.range":"{first}–{last} sur {total}","page.size":"Par page","overview.pending":"En attente de vérification","overview.tombstones":"Pierres tombales","overview.review":"Vérifier maintenant","overview.by_scope":"Souvenirs selon qui peut les entendre","overview.by_provenance":"Souvenirs par provenance","overview.by_status":"Souvenirs par état","overview.none":"Aucun pour l'instant.","overview.last_consolidation":"Dernière consolidation","overview.never":"Jamais","overview.store":"Stockage","overview.encoder":"Encodeur","overview.dimension":"{n} dimensions","list.title":"Souvenirs","list.filters":"Filtres","list.empty":"Aucun souvenir ne correspond à ces filtres.","search.title":"Rechercher en tant qu'interlocuteur","search.help":"Montre ce que l'assistant rappellerait pour cette personne dans cette pièce, et pourquoi chaque souvenir apparaît.","search.query":"Question ou mots","search.as_person":"Interlocuteur","search.unknown_speaker":"Interlocuteur inconnu","search.in_area":"Pièce","search.no_area":"Aucune pièce","search.limit":"Résultats","search.submit":"Rechercher","search.empty":"Rien de ce que cet interlocuteur entendrait ne correspond.","search.score":"Score {score} · similarité {similarity}","search.why":"Pourquoi il apparaît","search.outdated":"Une valeur plus récente a remplacé celle-ci.","search.open_newer":"Ouvrir la valeur plus récente","search.withheld_title":"Caché à cette personne","search.withheld_help":"Retrouvés, mais confidentiels : l'assistant ne les dirait pas à cette personne (une personne inconnue n'entend ni code, ni donnée de paiement ou de santé).","search.withheld_mark":"Caché : pas dit à cette personne","detail.title":"Souvenir","detail.said_by":"Qui l'a dit","detail.edit":"Modifier","detail.edit_help":"Un texte modifié est vérifié comme un nouveau souvenir : les secrets sont refusés.","detail.choose":"Choisir…","detail.saved":"Enregistré.","detail.forget":"Oublier","detail.forget_confirm":"Oublier « {content} » ? Son texte est supprimé et une pierre tombale empêche qu'il soit appris de nouveau.","detail.forgotten":"Oublié.","history.title":"Historique","history.single":"Ce souvenir n'a jamais changé.","history.window":"du {from} au {to}","history.since":"depuis le {from}","pending.title":"En attente de vérification","pending.help":"Appris des conversations pendant que la vérification avant usage est activée. Les souvenirs approuvés sont rappelés dès lors ; les souvenirs rejetés sont oubliés et ne sont plus appris.","pending.empty":"Rien n'attend de vérification.","pending.replaces":"Remplace un fait enregistré :","pending.approve":"Approuver","pending.reject":"Rejeter","pending.approved":"Approuvé.","pending.rejected":"Rejeté et oublié.","forget.person_title":"Oublier une personne","forget.person_help":"Oublie tous les souvenirs privés de la personne. Les souvenirs de pièce et du foyer restent, sans plus être attribués à cette personne. Action irréversible.","forget.person_submit":"Oublier les souvenirs de la personne","forget.person_confirm":"Oublier tous les souvenirs privés de {person} ? Action irréversible.","forget.person_done":"Souvenirs privés de {person} oubliés : {n}","tombstones.title":"Pierres tombales","tombstones.help":"Une pierre tombale empêche qu'un souvenir oublié soit appris de nouveau. Elle ne contient aucun texte. La lever permet de l'apprendre à nouveau.","tombstones.empty":"Aucune pierre tombale.","tombstones.created":"Oublié le {time}","tombstones.lifted_at":"levée le {time}","tombstones.lift":"Lever","tombstones.lifted":"Pierre tombale levée.","consolidate.title":"Consolidation","consolidate.help":"Garde un seul souvenir actuel par fait : les reformulations sont fusionnées, les anciennes valeurs passent dans l'historique, les suppositions inutilisées sont supprimées. Elle s'exécute aussi une fois par jour. Voyez d'abord ce qu'elle ferait, puis lancez-la.","consolidate.dry_run":"Voir ce qu'elle ferait","consolidate.run":"Lancer maintenant","consolidate.plan_title":"Ce qu'elle ferait","consolidate.done_title":"Terminé","consolidate.nothing":"Rien à faire.","consolidate.merged":"Fusionnés","consolidate.superseded":"Remplacés","consolidate.pruned":"Suppositions supprimées","consolidate.judged":"Tranchés par la tâche IA","consolidate.conflicts":"Conflits possibles","consolidate.changes_title":"Modifications","consolidate.would_merge":"Fusionner","consolidate.would_supersede":"Remplacer","consolidate.prune_title":"Suppositions à supprimer","consolidate.conflicts_title":"Conflits possibles laissés à une personne","consolidate.similarity":"similarité {value}","transfer.export_title":"Export","transfer.export_help":"Télécharge tous les souvenirs avec leur historique et leur provenance dans un fichier JSON lisible. Les souvenirs oubliés n'apparaissent que sous forme de nombres.","transfer.export":"Télécharger l'export","transfer.exported":"Souvenirs exportés : {n} ({file})","transfer.import_title":"Import","transfer.import_help":"Lit un fichier d'export. Chaque souvenir est vérifié comme un nouveau ; les doublons sont ignorés et rien n'est écrasé.","transfer.choose_file":"Fichier d'export (JSON)","transfer.invalid_json":"{file} n'est pas un fichier JSON.","transfer.created":"Importés : {n}","transfer.duplicates":"Déjà connus : {n}","transfer.rejected":"Refusés : {n}","transfer.rejected_item":"Souvenir {index} : {reason}","transfer.reason.conflict":"une autre valeur de ce fait est déjà enregistrée ici ; rien n'a été écrasé","transfer.reason.forgotten":"il a été oublié ici et le reste","transfer.reason.sensitive_content":"appris automatiquement, mais il contient un code ou une donnée de paiement ou de santé","transfer.reason.other":"refusé : un champ manque, n'est pas valide ou est inconnu ici","settings.title":"Apprentissage","settings.help":"Les mêmes options que dans la boîte de dialogue des options de l'intégration.","settings.learning":"Apprendre des conversations","settings.learning_help":"L'assistant mémoire apprend seul des souvenirs à partir des conversations. Les transcriptions des conversations sont enregistrées dans tous les cas.","settings.opt_out":"Pièces exclues","settings.opt_out_help":"Les conversations dans ces pièces ne servent jamais à apprendre.","settings.no_areas":"Aucune zone n'est configurée.","settings.review":"Vérifier les souvenirs appris avant usage","settings.review_help":"Les souvenirs appris attendent ici et ne sont jamais rappelés avant d'être approuvés ou rejetés.","settings.cloud":"Autoriser les souvenirs personnels vers un modèle cloud","settings.cloud_help":"Désactivé : les conversations d'une personne reconnue ne sont jamais envoyées à une tâche IA cloud. Les mots sensibles ne sont jamais envoyés, quel que soit ce réglage.","settings.retention":"Conservation des transcriptions (jours)","settings.retention_help":"Les transcriptions enregistrées plus anciennes sont supprimées une fois par jour ({min} à {max}).","settings.retention_invalid":"{field} : saisissez un nombre entier de jours entre {min} et {max}.","settings.reset":"Annuler les modifications","settings.saved":"Enregistré."};var vt={"panel.title":"Memoria","panel.menu":"Apri la barra laterale","panel.sections":"Sezioni del pannello Memoria","tab.overview":"Panoramica","tab.list":"Ricordi","tab.search":"Ricerca","tab.pending":"Da rivedere","tab.forget":"Dimentica","tab.consolidate":"Consolida","tab.transfer":"Esporta e importa","tab.settings":"Apprendimento","common.back":"Indietro","common.cancel":"Annulla","common.loading":"Caricamento…","common.refresh":"Aggiorna","common.save":"Salva","common.yes":"Sì","common.no":"No","kind.fact":"Fatto","kind.preference":"Preferenza","kind.episode":"Episodio","kind.procedure":"Procedura","kind.note":"Nota","scope.private":"Privato","scope.room":"Stanza","scope.shared":"Famiglia","scope.system":"Sistema","scope.private_of":"Privato di {person}","scope.room_of":"Stanza: {room}","provenance.confirmed":"Confermato","provenance.observed":"Osservato","provenance.extracted":"Appreso da una conversazione","provenance.inferred":"Supposto","status.active":"Attuale","status.pending":"In attesa di revisione","status.superseded":"Sostituito","status.archived":"Unito","source.voice":"Voce","source.service":"Azione","source.extraction":"Apprendimento","source.automation":"Automazione","source.admin":"Amministratore","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Significato","factor.lexical":"Parole in comune","factor.provenance":"Provenienza","factor.importance":"Importanza","factor.recency":"Recenza","factor.translation":"Parole in comune in un'altra lingua","factor.named":"Nomina una persona","factor.about_speaker":"Riguarda chi parla","factor.context":"Contesto della conversazione","factor.conversation":"Stessa conversazione","factor.newer":"Valore più recente","said_by.person_room":"Detto da {person} in {room}, {time}","said_by.person":"Detto da {person}, {time}","said_by.unknown_room":"Detto da un interlocutore sconosciuto in {room}, {time}","said_by.unknown":"Detto da un interlocutore sconosciuto, {time}","memory.open":"Apri","memory.sensitive":"Sensibile","field.content":"Testo","field.kind":"Tipo","field.scope":"Chi può sentirlo","field.owner":"Proprietario","field.person":"Persona","field.area":"Area","field.provenance":"Provenienza","field.status":"Stato","field.language":"Lingua","field.said_by":"Detto da","field.sensitive":"Sensibile","field.importance":"Importanza","field.confidence":"Affidabilità","field.fact":"Fatto","field.source":"Origine","field.created":"Salvato","field.updated":"Ultima modifica","field.valid":"Valido","field.id":"ID","filter.any":"Tutti","filter.person":"Persona (proprietario o interlocutore)","filter.language_hint":"es. it","page.previous":"Precedente","page.next":"Successiva","page.range":"{first}–{last} di {total}","page.size":"Per pagina","overview.pending":"In attesa di revisione","overview.tombstones":"Lapidi","overview.review":"Rivedi ora","overview.by_scope":"Ricordi per chi può sentirli","overview.by_provenance":"Ricordi per provenienza","overview.by_status":"Ricordi per stato","overview.none":"Ancora nessuno.","overview.last_consolidation":"Ultima consolidazione","overview.never":"Mai","overview.store":"Archivio","overview.encoder":"Encoder","overview.dimension":"{n} dimensioni","list.title":"Ricordi","list.filters":"Filtri","list.empty":"Nessun ricordo corrisponde a questi filtri.","search.title":"Cerca come interlocutore","search.help":"Mostra cosa richiamerebbe l'assistente per questa persona in questa stanza, e perché emerge ogni ricordo.","search.query":"Domanda o parole","search.as_person":"Interlocutore","search.unknown_speaker":"Interlocutore sconosciuto","search.in_area":"Stanza","search.no_area":"Nessuna stanza","search.limit":"Risultati","search.submit":"Cerca","search.empty":"Niente di ciò che questo interlocutore sentirebbe corrisponde.","search.score":"Punteggio {score} · somiglianza {similarity}","search.why":"Perché emerge","search.outdated":"Un valore più recente ha sostituito questo.","search.open_newer":"Apri il valore più recente","search.withheld_title":"Tenuti nascosti a chi parla","search.withheld_help":"Trovati, ma riservati: l'assistente non li direbbe a chi parla (chi è sconosciuto non sente codici né dati di pagamento o di salute).","search.withheld_mark":"Nascosto: non detto a chi parla","detail.title":"Ricordo","detail.said_by":"Chi l'ha detto","detail.edit":"Modifica","detail.edit_help":"Un testo modificato viene controllato come un nuovo ricordo: i segreti vengono rifiutati.","detail.choose":"Scegli…","detail.saved":"Salvato.","detail.forget":"Dimentica","detail.forget_confirm":"Dimenticare «{content}»? Il testo viene cancellato e una lapide impedisce che venga appreso di nuovo.","detail.forgotten":"Dimenticato.","history.title":"Cronologia","history.single":"Questo ricordo non è mai cambiato.","history.window":"dal {from} al {to}","history.since":"dal {from}","pending.title":"In attesa di revisione","pending.help":"Appresi dalle conversazioni mentre la revisione prima dell'uso è attiva. I ricordi approvati vengono richiamati da quel momento; quelli rifiutati vengono dimenticati e non più appresi.","pending.empty":"Niente in attesa di revisione.","pending.replaces":"Sostituisce un fatto salvato:","pending.approve":"Approva","pending.reject":"Rifiuta","pending.approved":"Approvato.","pending.rejected":"Rifiutato e dimenticato.","forget.person_title":"Dimentica una persona","forget.person_help":"Dimentica tutti i ricordi privati della persona. I ricordi di stanza e della famiglia restano, senza più essere attribuiti a lei. Non si può annullare.","forget.person_submit":"Dimentica i ricordi della persona","forget.person_confirm":"Dimenticare tutti i ricordi privati di {person}? Non si può annullare.","forget.person_done":"Ricordi privati di {person} dimenticati: {n}","tombstones.title":"Lapidi","tombstones.help":"Una lapide impedisce che un ricordo dimenticato venga appreso di nuovo. Non contiene testo. Rimuoverla permette di apprenderlo di nuovo.","tombstones.empty":"Nessuna lapide.","tombstones.created":"Dimenticato il {time}","tombstones.lifted_at":"rimossa il {time}","tombstones.lift":"Rimuovi","tombstones.lifted":"Lapide rimossa.","consolidate.title":"Consolidazione","consolidate.help":"Mantiene un solo ricordo attuale per fatto: le riformulazioni vengono unite, i valori più vecchi diventano cronologia, le supposizioni mai usate vengono eliminate. Viene eseguita anche una volta al giorno. Prima guarda cosa farebbe, poi eseguila.","consolidate.dry_run":"Mostra cosa farebbe","consolidate.run":"Esegui ora","consolidate.plan_title":"Cosa farebbe","consolidate.done_title":"Fatto","consolidate.nothing":"Niente da fare.","consolidate.merged":"Uniti","consolidate.superseded":"Sostituiti","consolidate.pruned":"Supposizioni eliminate","consolidate.judged":"Decisi dall'AI Task","consolidate.conflicts":"Possibili conflitti","consolidate.changes_title":"Modifiche","consolidate.would_merge":"Unisci","consolidate.would_supersede":"Sostituisci","consolidate.prune_title":"Supposizioni da eliminare","consolidate.conflicts_title":"Possibili conflitti lasciati a una persona","consolidate.similarity":"somiglianza {value}","transfer.export_title":"Esporta","transfer.export_help":"Scarica tutti i ricordi con cronologia e provenienza in un file JSON leggibile. I ricordi dimenticati compaiono solo come conteggi.","transfer.export":"Scarica l'esportazione","transfer.exported":"Ricordi esportati: {n} ({file})","transfer.import_title":"Importa","transfer.import_help":"Legge un file di esportazione. Ogni ricordo viene controllato come uno nuovo; i doppioni vengono saltati e nulla viene sovrascritto.","transfer.choose_file":"File di esportazione (JSON)","transfer.invalid_json":"{file} non è un file JSON.","transfer.created":"Importati: {n}","transfer.duplicates":"Già noti: {n}","transfer.rejected":"Rifiutati: {n}","transfer.rejected_item":"Ricordo {index}: {reason}","transfer.reason.conflict":"qui è già salvato un altro valore di questo fatto; nulla è stato sovrascritto","transfer.reason.forgotten":"qui è stato dimenticato e resta dimenticato","transfer.reason.sensitive_content":"appreso automaticamente, ma contiene un codice o un dato di pagamento o di salute","transfer.reason.other":"non accettato: un campo manca, non è valido o qui è sconosciuto","settings.title":"Apprendimento","settings.help":"Le stesse opzioni della finestra delle opzioni dell'integrazione.","settings.learning":"Impara dalle conversazioni","settings.learning_help":"L'assistente memoria impara da solo i ricordi dalle conversazioni. Le trascrizioni delle conversazioni vengono salvate comunque.","settings.opt_out":"Aree escluse","settings.opt_out_help":"Dalle conversazioni in queste aree non si impara mai.","settings.no_areas":"Nessuna area configurata.","settings.review":"Rivedi i ricordi appresi prima dell'uso","settings.review_help":"I ricordi appresi attendono qui e non vengono mai richiamati finché non sono approvati o rifiutati.","settings.cloud":"Consenti ricordi personali a un modello cloud","settings.cloud_help":"Disattivato: le conversazioni di una persona riconosciuta non vanno mai a un AI Task cloud. Le parole sensibili non vengono mai inviate, qualunque sia questa impostazione.","settings.retention":"Conservazione delle trascrizioni (giorni)","settings.retention_help":"Le trascrizioni salvate più vecchie di così vengono eliminate una volta al giorno (da {min} a {max}).","settings.retention_invalid":"{field}: inserisci un numero intero di giorni tra {min} e {max}.","settings.reset":"Annulla le modifiche","settings.saved":"Salvato."};var Pe={de:mt,en:Ee,es:ft,fr:gt,it:vt};function Re(s){let i=(s??"en").toLowerCase();if(i in Pe)return i;let e=i.split("-")[0];return e in Pe?e:"en"}function bt(s){let i=Pe[Re(s)];return(e,t)=>{let r=i[e]??Ee[e]??e;return t?r.replace(/\{(\w+)\}/g,(n,o)=>o in t?String(t[o]):n):r}}function yt(s,i){let e=Re(s.language),t=s.language||e,r=new Intl.DateTimeFormat(t,{dateStyle:"medium",timeStyle:"short"}),n=ut(s),o=bt(s.language);return{hass:s,api:new oe(s),t:o,label:(c,d)=>{let p=`${c}.${d}`,m=o(p);return m===p?d:m},language:e,persons:n,areas:i,time:c=>{if(!c)return"";let d=new Date(c);return Number.isNaN(d.getTime())?c:r.format(d)},number:(c,d=2)=>new Intl.NumberFormat(t,{minimumFractionDigits:d,maximumFractionDigits:d}).format(c),personName:c=>c?n.find(d=>d.id===c)?.name??c:"",areaName:c=>c?i.find(d=>d.area_id===c)?.name??c:""}}function O(s,i){s.dispatchEvent(new CustomEvent("memory-open",{detail:{id:i},bubbles:!0,composed:!0}))}function de(s,i){s.dispatchEvent(new CustomEvent("memory-navigate",{detail:{view:i},bubbles:!0,composed:!0}))}var v=class extends _{constructor(){super(...arguments);this.error="";this.busy=!1;this.started=!1}static{this.styles=x}static{this.properties={ctx:{attribute:!1},error:{state:!0},busy:{state:!0}}}start(){}willUpdate(e){super.willUpdate(e),!this.started&&this.ctx&&(this.started=!0,this.start())}async run(e){this.busy=!0,this.error="";try{return await e()}catch(t){this.error=await ht(this.ctx?.hass,t);return}finally{this.busy=!1}}renderError(){return this.error?a`<div class="error" role="alert" data-testid="error">${this.error}</div>`:l}};function b(s,i,e,t,r){return a`<label class="field" for=${s}
    >${i}
    <select
      id=${s}
      data-testid=${s}
      .value=${e}
      @change=${n=>r(n.target.value)}
    >
      ${t.map(n=>a`<option value=${n.value} ?selected=${n.value===e}>${n.label}</option>`)}
    </select></label
  >`}function P(s,i,e,t){let r=e.map(n=>({value:n,label:s.label(i,n)}));return t===void 0?r:[{value:"",label:t},...r]}function E(s,i){let e=s.persons.map(t=>({value:t.id,label:t.name}));return i===void 0?e:[{value:"",label:i},...e]}function D(s,i){let e=s.areas.map(t=>({value:t.area_id,label:t.name}));return i===void 0?e:[{value:"",label:i},...e]}function H(s,i){let e=i.person_name||s.personName(i.person_id),t=i.area_name||s.areaName(i.area_id),r=`said_by.${e?"person":"unknown"}${t?"_room":""}`;return a`<div
    class="said-by"
    data-testid="said-by"
    data-person=${i.person_id??""}
    data-area=${i.area_id??""}
  >
    ${s.t(r,{person:e,room:t,time:s.time(i.at)})}
  </div>`}function Ce(s,i){let e=s.t,t=i.scope==="private"&&i.owner_id?e("scope.private_of",{person:s.personName(i.owner_id)}):i.scope==="room"&&i.area_id?e("scope.room_of",{room:s.areaName(i.area_id)}):s.label("scope",i.scope);return a`<div class="chips">
    <span class="chip" data-testid="chip-kind">${s.label("kind",i.kind)}</span>
    <span class="chip" data-testid="chip-scope">${t}</span>
    <span class="chip" data-testid="chip-provenance">${s.label("provenance",i.provenance)}</span>
    <span class="chip ${i.status==="active"?"":"warn"}" data-testid="chip-status">${s.label("status",i.status)}</span>
    <span class="chip" data-testid="chip-language">${i.language}</span>
    ${i.sensitive?a`<span class="chip warn" data-testid="chip-sensitive">${e("memory.sensitive")}</span>`:l}
  </div>`}function j(s,i,e,t=l,r="memory-item"){return a`<li class="card" data-testid=${r} data-memory-id=${e.id}>
    <div class="content" data-testid="memory-content">${e.content}</div>
    ${Ce(s,e)} ${H(s,e.said_by)}
    <div class="actions">
      <button data-testid="open-memory" @click=${()=>O(i,e.id)}>${s.t("memory.open")}</button>
    </div>
    ${t}
  </li>`}function Z(s,i,e,t,r,n){let o=r===0?0:e+1,c=Math.min(e+t,r);return a`<div class="row pager">
    <button data-testid="${i}-prev" ?disabled=${e<=0} @click=${()=>n(Math.max(0,e-t))}>
      ${s.t("page.previous")}
    </button>
    <span data-testid="${i}-range" aria-live="polite">${s.t("page.range",{first:o,last:c,total:r})}</span>
    <button data-testid="${i}-next" ?disabled=${c>=r} @click=${()=>n(e+t)}>
      ${s.t("page.next")}
    </button>
  </div>`}var Te=class extends v{static{this.properties={plan:{state:!0},done:{state:!0}}}async dryRun(){this.done=void 0;let i=await this.run(()=>this.ctx.api.consolidate(!0));i&&(this.plan=i)}async runNow(){let i=await this.run(()=>this.ctx.api.consolidate(!1));i&&(this.done=i,this.plan=void 0,this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})))}link(i){return a`<button class="link" @click=${()=>O(this,i.id)}>${i.content??i.id}</button>`}renderCounts(i){let e=this.ctx.t,t=(r,n)=>a`<div class="count" data-testid="consolidate-${r}"><span class="n">${n}</span><span class="label">${e(`consolidate.${r}`)}</span></div>`;return a`<div class="counts">
      ${t("merged",i.merged)} ${t("superseded",i.superseded)} ${t("pruned",i.pruned)}
      ${i.judged!==void 0?t("judged",i.judged):l} ${t("conflicts",i.conflicts.length)}
    </div>`}renderConflicts(i){let e=this.ctx;return i.conflicts.length?a`<h3>${e.t("consolidate.conflicts_title")}</h3>
      <ul data-testid="consolidate-conflict-list">
        ${i.conflicts.map(t=>a`<li>
              ${this.link(t.older)} → ${this.link(t.newer)}
              <span class="muted">(${e.t("consolidate.similarity",{value:e.number(t.similarity)})})</span>
            </li>`)}
      </ul>`:l}renderPlan(i){let t=this.ctx.t,r=i.changes??[],n=i.prune??[];return a`<div class="card" data-testid="consolidate-plan">
      <h2>${t("consolidate.plan_title")}</h2>
      ${this.renderCounts(i)}
      ${r.length===0&&n.length===0&&i.conflicts.length===0?a`<p class="muted" data-testid="consolidate-nothing">${t("consolidate.nothing")}</p>`:l}
      ${r.length?a`<h3>${t("consolidate.changes_title")}</h3>
            <ul data-testid="consolidate-changes">
              ${r.map(o=>a`<li data-memory-id=${o.id}>
                    ${t(o.status==="archived"?"consolidate.would_merge":"consolidate.would_supersede")}:
                    ${this.link(o)} → ${this.link(o.by)}
                  </li>`)}
            </ul>`:l}
      ${n.length?a`<h3>${t("consolidate.prune_title")}</h3>
            <ul data-testid="consolidate-prune">
              ${n.map(o=>a`<li>${this.link({id:o,content:null})}</li>`)}
            </ul>`:l}
      ${this.renderConflicts(i)}
      <div class="actions">
        <button class="primary" data-testid="consolidate-run" ?disabled=${this.busy} @click=${()=>this.runNow()}>
          ${t("consolidate.run")}
        </button>
      </div>
    </div>`}render(){let i=this.ctx;if(!i)return l;let e=i.t;return a`<div class="card">
        <h2>${e("consolidate.title")}</h2>
        <p class="help">${e("consolidate.help")}</p>
        <div class="actions">
          <button data-testid="consolidate-dry-run" ?disabled=${this.busy} @click=${()=>this.dryRun()}>
            ${e("consolidate.dry_run")}
          </button>
        </div>
      </div>
      ${this.renderError()} ${this.plan?this.renderPlan(this.plan):l}
      ${this.done?a`<div class="card" data-testid="consolidate-done">
            <h2>${e("consolidate.done_title")}</h2>
            ${this.renderCounts(this.done)} ${this.renderConflicts(this.done)}
          </div>`:l}`}};g("hm-consolidate",Te);var le={ATTRIBUTE:1,CHILD:2,PROPERTY:3,BOOLEAN_ATTRIBUTE:4,EVENT:5,ELEMENT:6},ce=s=>(...i)=>({_$litDirective$:s,values:i}),V=class{constructor(i){}get _$AU(){return this._$AM._$AU}_$AT(i,e,t){this._$Ct=i,this._$AM=e,this._$Ci=t}_$AS(i,e){return this.update(i,e)}update(i,e){return this.render(...e)}};var{I:Wt}=ot,_t=s=>s;var $t=()=>document.createComment(""),U=(s,i,e)=>{let t=s._$AA.parentNode,r=i===void 0?s._$AB:i._$AA;if(e===void 0){let n=t.insertBefore($t(),r),o=t.insertBefore($t(),r);e=new Wt(n,o,s,s.options)}else{let n=e._$AB.nextSibling,o=e._$AM,c=o!==s;if(c){let d;e._$AQ?.(s),e._$AM=s,e._$AP!==void 0&&(d=s._$AU)!==o._$AU&&e._$AP(d)}if(n!==r||c){let d=e._$AA;for(;d!==n;){let p=_t(d).nextSibling;_t(t).insertBefore(d,r),d=p}}}return e},R=(s,i,e=s)=>(s._$AI(i,e),s),Jt={},wt=(s,i=Jt)=>s._$AH=i,xt=s=>s._$AH,pe=s=>{s._$AR(),s._$AA.remove()};var At=(s,i,e)=>{let t=new Map;for(let r=i;r<=e;r++)t.set(s[r],r);return t},I=ce(class extends V{constructor(s){if(super(s),s.type!==le.CHILD)throw Error("repeat() can only be used in text expressions")}dt(s,i,e){let t;e===void 0?e=i:i!==void 0&&(t=i);let r=[],n=[],o=0;for(let c of s)r[o]=t?t(c,o):o,n[o]=e(c,o),o++;return{values:n,keys:r}}render(s,i,e){return this.dt(s,i,e).values}update(s,[i,e,t]){let r=xt(s),{values:n,keys:o}=this.dt(i,e,t);if(!Array.isArray(r))return this.ut=o,n;let c=this.ut??=[],d=[],p,m,u=0,f=r.length-1,h=0,y=n.length-1;for(;u<=f&&h<=y;)if(r[u]===null)u++;else if(r[f]===null)f--;else if(c[u]===o[h])d[h]=R(r[u],n[h]),u++,h++;else if(c[f]===o[y])d[y]=R(r[f],n[y]),f--,y--;else if(c[u]===o[y])d[y]=R(r[u],n[y]),U(s,d[y+1],r[u]),u++,y--;else if(c[f]===o[h])d[h]=R(r[f],n[h]),U(s,r[u],r[f]),f--,h++;else if(p===void 0&&(p=At(o,h,y),m=At(c,u,f)),p.has(c[u]))if(p.has(c[f])){let A=m.get(o[h]),ue=A!==void 0?r[A]:null;if(ue===null){let Ve=U(s,r[u]);R(Ve,n[h]),d[h]=Ve}else d[h]=R(ue,n[h]),U(s,r[u],ue),r[A]=null;h++}else pe(r[f]),f--;else pe(r[u]),u++;for(;h<=y;){let A=U(s,d[y+1]);R(A,n[h]),d[h++]=A}for(;u<=f;){let A=r[u++];A!==null&&pe(A)}return this.ut=o,wt(s,d),w}});var St="important",Qt=" !"+St,kt=ce(class extends V{constructor(s){if(super(s),s.type!==le.ATTRIBUTE||s.name!=="style"||s.strings?.length>2)throw Error("The `styleMap` directive must be used in the `style` attribute and must be the only part in the attribute.")}render(s){return Object.keys(s).reduce((i,e)=>{let t=s[e];return t==null?i:i+`${e=e.includes("-")?e:e.replace(/(?:^(webkit|moz|ms|o)|)(?=[A-Z])/g,"-$&").toLowerCase()}:${t};`},"")}update(s,[i]){let{style:e}=s.element;if(this.ft===void 0)return this.ft=new Set(Object.keys(i)),this.render(i);for(let t of this.ft)i[t]==null&&(this.ft.delete(t),t.includes("-")?e.removeProperty(t):e[t]=null);for(let t in i){let r=i[t];if(r!=null){this.ft.add(t);let n=typeof r=="string"&&r.endsWith(Qt);t.includes("-")||n?e.setProperty(t,n?r.slice(0,-11):r,n?St:""):e[t]=r}}return w}});var Ne=1e3,Me=class extends v{constructor(){super(...arguments);this.query="";this.person="";this.area="";this.language="";this.limit=10;this.withheld=[]}static{this.styles=[x,$`
      table.factors {
        width: 100%;
        border-collapse: collapse;
        font-size: 13px;
        margin-top: 8px;
      }
      table.factors caption {
        text-align: left;
      }
      table.factors th {
        text-align: left;
        font-weight: 400;
        color: var(--secondary-text-color, #727272);
        padding: 2px 8px 2px 0;
        white-space: nowrap;
      }
      table.factors td.value {
        text-align: right;
        font-variant-numeric: tabular-nums;
        padding: 2px 8px;
        white-space: nowrap;
      }
      table.factors td.bar {
        width: 100%;
      }
      .bar span {
        display: block;
        height: 8px;
        border-radius: 4px;
        background: var(--primary-color, #03a9f4);
        min-width: 2px;
      }
      .bar span.negative {
        background: var(--error-color, #db4437);
      }
      .score {
        font-size: 13px;
        color: var(--secondary-text-color, #727272);
      }
      section.withheld {
        margin-top: 16px;
      }
      section.withheld h2 {
        margin: 0 0 4px;
      }
      section.withheld li.card {
        border-left: 4px solid var(--warning-color, #ffa600);
      }
      .withheld-mark {
        display: inline-block;
        font-size: 13px;
        font-weight: 500;
        color: var(--warning-color, #ffa600);
        margin-top: 4px;
      }
    `]}static{this.properties={query:{state:!0},person:{state:!0},area:{state:!0},language:{state:!0},limit:{state:!0},hits:{state:!0},withheld:{state:!0}}}async search(e){if(e?.preventDefault(),!this.query.trim())return;let t=this.ctx,r=await this.run(()=>t.api.search(this.query,this.person||void 0,this.area||void 0,this.language.trim()||void 0,this.limit));r&&(this.hits=r.hits,this.withheld=r.withheld??[])}factors(e){let t=this.ctx,r=Object.entries(e.factors).sort(([,o],[,c])=>Math.abs(c)-Math.abs(o)),n=Math.max(...r.map(([,o])=>Math.abs(o)),1e-9);return a`<table class="factors" data-testid="hit-factors">
      <caption class="help">${t.t("search.why")}</caption>
      ${r.map(([o,c])=>a`<tr data-testid="factor" data-factor=${o}>
            <th scope="row">${t.label("factor",o)}</th>
            <td class="value">${t.number(c)}</td>
            <td class="bar" aria-hidden="true">
              <span
                class=${c<0?"negative":""}
                style=${kt({width:`${(Math.abs(c)/n*100).toFixed(1)}%`})}
              ></span>
            </td>
          </tr>`)}
    </table>`}renderHit(e){let t=this.ctx,r=t.t,n=a`<div class="score" data-testid="hit-score">
        ${r("search.score",{score:t.number(e.score),similarity:t.number(e.similarity)})}
      </div>
      ${e.outdated_by?a`<p class="help" data-testid="hit-outdated">
            ${r("search.outdated")}
            <button class="link" @click=${()=>O(this,e.outdated_by)}>${r("search.open_newer")}</button>
          </p>`:l}
      ${this.factors(e)}`;return j(t,this,e.memory,n,"search-hit")}renderWithheld(e){let t=this.ctx,r=a`<div class="withheld-mark" data-testid="withheld-mark">${t.t("search.withheld_mark")}</div>
      <div class="score" data-testid="hit-score">
        ${t.t("search.score",{score:t.number(e.score),similarity:t.number(e.similarity)})}
      </div>`;return j(t,this,e.memory,r,"search-withheld")}render(){let e=this.ctx;if(!e)return l;let t=e.t;return a`<form class="card" @submit=${r=>this.search(r)}>
        <h2>${t("search.title")}</h2>
        <p class="help">${t("search.help")}</p>
        <label class="field" for="search-query"
          >${t("search.query")}
          <input
            id="search-query"
            data-testid="search-query"
            type="search"
            required
            maxlength=${Ne}
            .value=${this.query}
            @input=${r=>this.query=r.target.value}
          />
        </label>
        <div class="grid spaced">
          ${b("search-person",t("search.as_person"),this.person,E(e,t("search.unknown_speaker")),r=>this.person=r)}
          ${b("search-area",t("search.in_area"),this.area,D(e,t("search.no_area")),r=>this.area=r)}
          <label class="field" for="search-language"
            >${t("field.language")}
            <input
              id="search-language"
              data-testid="search-language"
              type="text"
              autocomplete="off"
              spellcheck="false"
              placeholder=${e.hass.language}
              .value=${this.language}
              @input=${r=>this.language=r.target.value}
            />
          </label>
          <label class="field" for="search-limit"
            >${t("search.limit")}
            <input
              id="search-limit"
              data-testid="search-limit"
              type="number"
              min="1"
              max="20"
              .value=${String(this.limit)}
              @change=${r=>this.limit=Math.min(20,Math.max(1,Number(r.target.value)||10))}
            />
          </label>
        </div>
        <div class="actions">
          <button class="primary" type="submit" data-testid="search-submit" ?disabled=${this.busy}>${t("search.submit")}</button>
        </div>
      </form>
      ${this.renderError()}
      ${this.hits===void 0?l:this.hits.length===0?a`<p class="muted" data-testid="search-empty">${t("search.empty")}</p>`:a`<ul class="plain" data-testid="search-hits">
              ${I(this.hits,r=>r.memory.id,r=>this.renderHit(r))}
            </ul>`}
      ${this.hits!==void 0&&this.withheld.length?a`<section class="withheld" data-testid="search-withheld-section" aria-labelledby="search-withheld-title">
            <h2 id="search-withheld-title">${t("search.withheld_title")}</h2>
            <p class="help">${t("search.withheld_help")}</p>
            <ul class="plain" data-testid="search-withheld-list">
              ${I(this.withheld,r=>r.memory.id,r=>this.renderWithheld(r))}
            </ul>
          </section>`:l}`}};g("hm-search",Me);var ze=class extends v{constructor(){super(...arguments);this.memoryId="";this.notice="";this.gone=!1}static{this.styles=[x,$`
      ol.chain {
        list-style: none;
        margin: 0;
        padding: 0 0 0 16px;
        border-left: 2px solid var(--divider-color, #e0e0e0);
      }
      ol.chain li {
        position: relative;
        padding: 4px 0 12px 8px;
      }
      ol.chain li::before {
        content: "";
        position: absolute;
        left: -23px;
        top: 10px;
        width: 12px;
        height: 12px;
        border-radius: 50%;
        background: var(--card-background-color, #fff);
        border: 2px solid var(--divider-color, #e0e0e0);
      }
      ol.chain li.this::before {
        background: var(--primary-color, #03a9f4);
        border-color: var(--primary-color, #03a9f4);
      }
      .window {
        font-size: 13px;
        color: var(--secondary-text-color, #727272);
      }
    `]}static{this.properties={memoryId:{attribute:!1},data:{state:!0},draft:{state:!0},notice:{state:!0},gone:{state:!0}}}start(){this.load(this.memoryId)}willUpdate(e){super.willUpdate(e),e.has("memoryId")&&e.get("memoryId")&&this.ctx&&(this.notice="",this.load(this.memoryId))}async load(e){this.draft=void 0,this.gone=!1;let t=await this.run(()=>this.ctx.api.get(e));t&&(this.data=t)}changed(){this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0}))}edit(e){this.notice="",this.draft={content:e.content,kind:e.kind,scope:e.scope,owner:e.owner_id??"",area:e.area_id??""}}async save(e){e.preventDefault();let t=this.data.memory,r=this.draft,n={};if(r.content!==t.content&&(n.content=r.content),r.kind!==t.kind&&(n.kind=r.kind),r.scope!==t.scope&&(n.scope=r.scope),r.scope==="private"&&r.owner&&r.owner!==t.owner_id&&(n.owner=r.owner),r.scope==="room"&&r.area&&r.area!==t.area_id&&(n.area=r.area),Object.keys(n).length===0){this.draft=void 0;return}let o=await this.run(()=>this.ctx.api.update(t.id,n));o&&(this.notice=this.ctx.t("detail.saved"),this.changed(),await this.load(o.memory.id))}async forget(){let e=this.ctx.t,t=this.data.memory;await this.renderRoot.querySelector("hm-confirm").ask(e("detail.forget_confirm",{content:t.content}),e("detail.forget"),e("common.cancel"))&&await this.run(()=>this.ctx.api.forget(t.id))&&(this.gone=!0,this.notice=e("detail.forgotten"),this.changed())}async review(e){let t=this.ctx,r=this.data.memory;if(e){let n=await this.run(()=>t.api.approve(r.id));n&&(this.notice=t.t("pending.approved"),this.changed(),await this.load(n.memory.id))}else await this.run(()=>t.api.reject(r.id))&&(this.gone=!0,this.notice=t.t("pending.rejected"),this.changed())}window(e){let t=this.ctx.t,r=this.ctx.time(e.valid_from??e.created_at);return e.valid_to?t("history.window",{from:r,to:this.ctx.time(e.valid_to)}):t("history.since",{from:r})}renderFields(e){let t=this.ctx,r=t.t,n=(o,c,d)=>c==null||c===""?l:a`<dt>${o}</dt>
            <dd data-testid=${d}>${c}</dd>`;return a`<dl class="fields">
      ${n(r("field.kind"),t.label("kind",e.kind),"field-kind")}
      ${n(r("field.scope"),t.label("scope",e.scope),"field-scope")}
      ${n(r("field.owner"),t.personName(e.owner_id),"field-owner")}
      ${n(r("field.area"),t.areaName(e.area_id),"field-area")}
      ${n(r("field.provenance"),t.label("provenance",e.provenance),"field-provenance")}
      ${n(r("field.status"),t.label("status",e.status),"field-status")}
      ${n(r("field.language"),e.language,"field-language")}
      ${n(r("field.sensitive"),e.sensitive?r("common.yes"):r("common.no"),"field-sensitive")}
      ${n(r("field.importance"),t.number(e.importance),"field-importance")}
      ${n(r("field.confidence"),t.number(e.confidence),"field-confidence")}
      ${n(r("field.fact"),[e.subject,e.predicate,e.value].filter(Boolean).join(" · "),"field-fact")}
      ${n(r("field.source"),t.label("source",e.source),"field-source")}
      ${n(r("field.created"),t.time(e.created_at),"field-created")}
      ${n(r("field.updated"),t.time(e.updated_at),"field-updated")}
      ${n(r("field.valid"),this.window(e),"field-valid")}
      ${n(r("field.id"),e.id,"field-id")}
    </dl>`}renderEdit(){let e=this.ctx,t=e.t,r=this.draft,n=o=>this.draft={...r,...o};return a`<form class="card" data-testid="edit-form" @submit=${o=>this.save(o)}>
      <h3>${t("detail.edit")}</h3>
      <label class="field" for="edit-content"
        >${t("field.content")}
        <textarea
          id="edit-content"
          data-testid="edit-content"
          required
          maxlength=${Ne}
          .value=${r.content}
          @input=${o=>n({content:o.target.value})}
        ></textarea>
      </label>
      <p class="help">${t("detail.edit_help")}</p>
      <div class="grid">
        ${b("edit-kind",t("field.kind"),r.kind,P(e,"kind",ae),o=>n({kind:o}))}
        ${b("edit-scope",t("field.scope"),r.scope,P(e,"scope",lt),o=>n({scope:o}))}
        ${r.scope==="private"?b("edit-owner",t("field.owner"),r.owner,E(e,t("detail.choose")),o=>n({owner:o})):l}
        ${r.scope==="room"?b("edit-area",t("field.area"),r.area,D(e,t("detail.choose")),o=>n({area:o})):l}
      </div>
      <div class="actions">
        <button class="primary" type="submit" data-testid="edit-save" ?disabled=${this.busy}>${t("common.save")}</button>
        <button type="button" data-testid="edit-cancel" @click=${()=>this.draft=void 0}>
          ${t("common.cancel")}
        </button>
      </div>
    </form>`}renderChain(){let e=this.ctx,t=e.t,{memory:r,older:n,newer:o}=this.data,c=(p,m)=>(m.valid_from??m.created_at).localeCompare(p.valid_from??p.created_at),d=[...[...o].sort(c),r,...[...n].sort(c)];return d.length===1?a`<p class="muted" data-testid="history-single">${t("history.single")}</p>`:a`<ol class="chain" data-testid="history">
      ${d.map(p=>a`<li
            class=${p.id===r.id?"this":""}
            data-testid="history-item"
            data-memory-id=${p.id}
            data-relation=${p.id===r.id?"this":o.includes(p)?"newer":"older"}
          >
            <div class="content">${p.content}</div>
            <div class="window" data-testid="history-window">${e.label("status",p.status)} · ${this.window(p)}</div>
            ${H(e,p.said_by)}
            ${p.id===r.id?l:a`<button class="link" data-testid="history-open" @click=${()=>O(this,p.id)}>
                  ${t("memory.open")}
                </button>`}
          </li>`)}
    </ol>`}render(){let e=this.ctx;if(!e)return l;let t=e.t,r=this.data?.memory;return a`<div class="row">
        <button data-testid="detail-back" @click=${()=>de(this,"back")}>← ${t("common.back")}</button>
      </div>
      <hm-confirm></hm-confirm>
      ${this.notice?a`<div class="notice" role="status" data-testid="notice">${this.notice}</div>`:l}
      ${this.renderError()}
      ${r&&!this.gone?a`<div class="card" data-testid="detail" data-memory-id=${r.id}>
              <h2>${t("detail.title")}</h2>
              <div class="content" data-testid="detail-content">${r.content}</div>
              ${Ce(e,r)}
              <h3>${t("detail.said_by")}</h3>
              ${H(e,r.said_by)} ${this.renderFields(r)}
              <div class="actions">
                ${r.status==="pending"?a`<button class="primary" data-testid="detail-approve" ?disabled=${this.busy} @click=${()=>this.review(!0)}>
                        ${t("pending.approve")}
                      </button>
                      <button data-testid="detail-reject" ?disabled=${this.busy} @click=${()=>this.review(!1)}>
                        ${t("pending.reject")}
                      </button>`:l}
                <button data-testid="detail-edit" ?disabled=${this.busy||!!this.draft} @click=${()=>this.edit(r)}>
                  ${t("detail.edit")}
                </button>
                <button class="danger" data-testid="detail-forget" ?disabled=${this.busy} @click=${()=>this.forget()}>
                  ${t("detail.forget")}
                </button>
              </div>
            </div>
            ${this.draft?this.renderEdit():l}
            <div class="card">
              <h3>${t("history.title")}</h3>
              ${this.renderChain()}
            </div>`:this.busy?a`<p class="muted">${t("common.loading")}</p>`:l}`}};g("hm-detail",ze);var Et=50,Le=class extends v{constructor(){super(...arguments);this.person="";this.notice="";this.total=0;this.offset=0}static{this.properties={person:{state:!0},notice:{state:!0},tombstones:{state:!0},total:{state:!0},offset:{state:!0}}}start(){this.load(0)}async load(e){let t=await this.run(()=>this.ctx.api.tombstones(e,Et));t&&(this.tombstones=t.tombstones,this.total=t.total,this.offset=e)}async forgetPerson(){let e=this.ctx,t=e.t,r=e.personName(this.person);if(!await this.renderRoot.querySelector("hm-confirm").ask(t("forget.person_confirm",{person:r}),t("forget.person_submit"),t("common.cancel")))return;let o=await this.run(()=>e.api.forgetPerson(this.person));o&&(this.notice=t("forget.person_done",{n:o.forgotten,person:r}),this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})),await this.load(0))}async lift(e){await this.run(()=>this.ctx.api.liftTombstone(e.id))&&(this.notice=this.ctx.t("tombstones.lifted"),await this.load(this.offset))}whom(e){let t=this.ctx;return e.scope==="private"&&e.owner_id?t.t("scope.private_of",{person:t.personName(e.owner_id)}):e.scope==="room"&&e.area_id?t.t("scope.room_of",{room:t.areaName(e.area_id)}):t.label("scope",e.scope)}render(){let e=this.ctx;if(!e)return l;let t=e.t;return a`<hm-confirm></hm-confirm>
      ${this.notice?a`<div class="notice" role="status" data-testid="notice">${this.notice}</div>`:l}
      ${this.renderError()}
      <div class="card">
        <h2>${t("forget.person_title")}</h2>
        <p class="help">${t("forget.person_help")}</p>
        <div class="grid">
          ${b("forget-person",t("field.person"),this.person,E(e,t("detail.choose")),r=>this.person=r)}
        </div>
        <div class="actions">
          <button
            class="danger"
            data-testid="forget-person-submit"
            ?disabled=${!this.person||this.busy}
            @click=${()=>this.forgetPerson()}
          >
            ${t("forget.person_submit")}
          </button>
        </div>
      </div>
      <div class="card">
        <h2>${t("tombstones.title")}</h2>
        <p class="help">${t("tombstones.help")}</p>
        ${this.tombstones===void 0?l:this.tombstones.length===0?a`<p class="muted" data-testid="tombstones-empty">${t("tombstones.empty")}</p>`:a`${Z(e,"tombstones",this.offset,Et,this.total,r=>this.load(r))}
                <ul class="plain" data-testid="tombstone-list">
                  ${this.tombstones.map(r=>a`<li class="card" data-testid="tombstone-item" data-tombstone-id=${r.id}>
                        <div>${this.whom(r)}</div>
                        <div class="said-by">
                          ${t("tombstones.created",{time:e.time(r.created_at)})}
                          ${r.lifted_at?a` · ${t("tombstones.lifted_at",{time:e.time(r.lifted_at)})}`:l}
                        </div>
                        ${r.lifted_at?l:a`<div class="actions">
                              <button data-testid="tombstone-lift" ?disabled=${this.busy} @click=${()=>this.lift(r)}>
                                ${t("tombstones.lift")}
                              </button>
                            </div>`}
                      </li>`)}
                </ul>`}
      </div>`}};g("hm-forget",Le);var Zt=[25,50,100,200],Oe=class extends v{constructor(){super(...arguments);this.filters={status:"active"};this.limit=50;this.request=0}static{this.properties={filters:{state:!0},page:{state:!0},limit:{state:!0}}}start(){this.load(0)}async load(e){let t={...this.filters,language:this.filters.language?.trim()},r=++this.request,n=await this.run(()=>this.ctx.api.list(t,e,this.limit));n&&r===this.request&&(this.page=n)}set(e,t){this.filters={...this.filters,[e]:t},this.load(0)}render(){let e=this.ctx;if(!e)return l;let t=e.t,r=this.filters,n=t("filter.any");return a`<div class="card">
        <h2>${t("list.title")}</h2>
        <div class="grid" role="group" aria-label=${t("list.filters")}>
          ${b("filter-kind",t("field.kind"),r.kind??"",P(e,"kind",ae,n),o=>this.set("kind",o))}
          ${b("filter-scope",t("field.scope"),r.scope??"",P(e,"scope",dt,n),o=>this.set("scope",o))}
          ${b("filter-person",t("filter.person"),r.person??"",E(e,n),o=>this.set("person",o))}
          ${b("filter-area",t("field.area"),r.area??"",D(e,n),o=>this.set("area",o))}
          ${b("filter-provenance",t("field.provenance"),r.provenance??"",P(e,"provenance",ct,n),o=>this.set("provenance",o))}
          ${b("filter-status",t("field.status"),r.status??"active",[...P(e,"status",pt),{value:"any",label:n}],o=>this.set("status",o))}
          <label class="field" for="filter-language"
            >${t("field.language")}
            <input
              id="filter-language"
              data-testid="filter-language"
              type="text"
              inputmode="text"
              autocomplete="off"
              spellcheck="false"
              placeholder=${t("filter.language_hint")}
              .value=${r.language??""}
              @change=${o=>this.set("language",o.target.value)}
            />
          </label>
          ${b("filter-said-by",t("field.said_by"),r.said_by??"",E(e,n),o=>this.set("said_by",o))}
          ${b("filter-limit",t("page.size"),String(this.limit),Zt.map(o=>({value:String(o),label:String(o)})),o=>{this.limit=Number(o),this.load(0)})}
        </div>
      </div>
      ${this.renderError()}
      ${this.page?a`${Z(e,"list",this.page.offset,this.page.limit,this.page.total,o=>this.load(o))}
            ${this.page.memories.length===0?a`<p class="muted" data-testid="list-empty">${t("list.empty")}</p>`:a`<ul class="plain" data-testid="memory-list">
                  ${I(this.page.memories,o=>o.id,o=>j(e,this,o))}
                </ul>`}
            ${this.page.total>this.page.limit?Z(e,"list-bottom",this.page.offset,this.page.limit,this.page.total,o=>this.load(o)):l}`:this.busy?a`<p class="muted">${t("common.loading")}</p>`:l}`}};g("hm-list",Oe);var je=class extends v{static{this.properties={data:{state:!0}}}start(){this.load()}async load(){this.data=await this.run(()=>this.ctx.api.overview())??this.data}counts(i,e){let t=this.ctx.t,r=Object.entries(e).sort(([n],[o])=>n.localeCompare(o));return a`<div class="card">
      <h3>${t(`overview.by_${i}`)}</h3>
      ${r.length===0?a`<p class="muted">${t("overview.none")}</p>`:a`<div class="counts">
            ${r.map(([n,o])=>a`<div class="count" data-testid="overview-${i}-${n}">
                  <span class="n">${o}</span><span class="label">${this.ctx.label(i,n)}</span>
                </div>`)}
          </div>`}
    </div>`}render(){let i=this.ctx;if(!i)return l;let e=i.t,t=this.data;return a`${this.renderError()}
    ${t?a`<div class="card">
            <div class="counts">
              <div class="count" data-testid="overview-pending">
                <span class="n">${t.counts.pending}</span><span class="label">${e("overview.pending")}</span>
              </div>
              <div class="count" data-testid="overview-tombstones">
                <span class="n">${t.counts.tombstones}</span><span class="label">${e("overview.tombstones")}</span>
              </div>
            </div>
            <div class="actions">
              ${t.counts.pending>0?a`<button class="primary" data-testid="overview-review" @click=${()=>de(this,"pending")}>
                    ${e("overview.review")}
                  </button>`:l}
              <button data-testid="overview-refresh" ?disabled=${this.busy} @click=${()=>this.load()}>
                ${e("common.refresh")}
              </button>
            </div>
          </div>
          ${this.counts("scope",t.counts.by_scope)} ${this.counts("provenance",t.counts.by_provenance)}
          ${this.counts("status",t.counts.by_status)}
          <div class="card">
            <dl class="fields">
              <dt>${e("overview.last_consolidation")}</dt>
              <dd data-testid="overview-last-consolidation">
                ${t.last_consolidation?i.time(t.last_consolidation):e("overview.never")}
              </dd>
              <dt>${e("overview.store")}</dt>
              <dd data-testid="overview-store">${i.label("store",t.store.kind)} — ${t.store.where}</dd>
              <dt>${e("overview.encoder")}</dt>
              <dd data-testid="overview-encoder">
                ${t.encoder.provider} · ${t.encoder.model} · ${e("overview.dimension",{n:t.encoder.dimension})}
              </dd>
            </dl>
          </div>`:this.busy?a`<p class="muted">${e("common.loading")}</p>`:l}`}};g("hm-overview",je);var Ie=class extends v{constructor(){super(...arguments);this.notice=""}static{this.properties={items:{state:!0},notice:{state:!0}}}start(){this.load()}async load(){let e=await this.run(()=>this.ctx.api.pending());e&&(this.items=e.pending)}async decide(e,t){let r=this.ctx.api,n=e.memory.id;await this.run(()=>t?r.approve(n):r.reject(n))&&(this.notice=this.ctx.t(t?"pending.approved":"pending.rejected"),this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})),await this.load())}renderItem(e){let t=this.ctx,r=t.t,n=a`${e.replaces.length?a`<div class="replaces" data-testid="pending-replaces">
            <p class="help">${r("pending.replaces")}</p>
            <ul class="plain">
              ${e.replaces.map(o=>a`<li data-memory-id=${o.id}>
                    <del class="content" data-testid="replaced-value">${o.content}</del>
                    ${H(t,o.said_by)}
                  </li>`)}
            </ul>
          </div>`:l}
      <div class="actions">
        <button class="primary" data-testid="pending-approve" ?disabled=${this.busy} @click=${()=>this.decide(e,!0)}>
          ${r("pending.approve")}
        </button>
        <button data-testid="pending-reject" ?disabled=${this.busy} @click=${()=>this.decide(e,!1)}>
          ${r("pending.reject")}
        </button>
      </div>`;return j(t,this,e.memory,n,"pending-item")}render(){let e=this.ctx;if(!e)return l;let t=e.t;return a`<div class="card">
        <h2>${t("pending.title")}</h2>
        <p class="help">${t("pending.help")}</p>
      </div>
      ${this.notice?a`<div class="notice" role="status" data-testid="notice">${this.notice}</div>`:l}
      ${this.renderError()}
      ${this.items===void 0?this.busy?a`<p class="muted">${t("common.loading")}</p>`:l:this.items.length===0?a`<p class="muted" data-testid="pending-empty">${t("pending.empty")}</p>`:a`<ul class="plain" data-testid="pending-list">
              ${I(this.items,r=>r.memory.id,r=>this.renderItem(r))}
            </ul>`}`}};g("hm-pending",Ie);var C={min:1,max:3650},qe=class extends v{constructor(){super(...arguments);this.notice="";this.retention=""}static{this.properties={saved:{state:!0},draft:{state:!0},notice:{state:!0},retention:{state:!0}}}start(){this.load()}async load(){let e=await this.run(()=>this.ctx.api.settings());e&&this.show(e)}show(e){this.saved=e,this.draft={...e,learning_opt_out_areas:[...e.learning_opt_out_areas]},this.retention=String(e.transcript_retention_days)}retentionDays(){let e=this.retention.trim();if(!/^\d+$/.test(e))return;let t=Number(e);return t>=C.min&&t<=C.max?t:void 0}typedRetention(e){this.retention=e;let t=this.retentionDays();t!==void 0&&this.set({transcript_retention_days:t})}changes(){let e={},t=this.draft,r=this.saved;for(let n of Object.keys(t)){let o=t[n],c=r[n];(Array.isArray(o)&&Array.isArray(c)?[...o].sort().join(`
`)===[...c].sort().join(`
`):o===c)||(e[n]=o)}return e}set(e){this.notice="",this.draft={...this.draft,...e}}toggleArea(e,t){let r=this.draft.learning_opt_out_areas.filter(n=>n!==e);this.set({learning_opt_out_areas:t?[...r,e]:r})}async save(e){e.preventDefault();let t=this.changes();if(this.retentionDays()===void 0||Object.keys(t).length===0)return;let r=await this.run(()=>this.ctx.api.updateSettings(t));r&&(this.show(r),this.notice=this.ctx.t("settings.saved"))}check(e,t,r,n){return a`<label class="check" for=${e}>
      <input
        id=${e}
        data-testid=${e}
        type="checkbox"
        .checked=${this.draft[t]}
        @change=${o=>this.set({[t]:o.target.checked})}
      />
      <span><span>${r}</span><br /><span class="help">${n}</span></span>
    </label>`}render(){let e=this.ctx;if(!e)return l;let t=e.t,r=this.draft;if(!r)return a`${this.renderError()}${this.busy?a`<p class="muted">${t("common.loading")}</p>`:l}`;let n=[...e.areas.map(d=>({id:d.area_id,name:d.name})),...r.learning_opt_out_areas.filter(d=>!e.areas.some(p=>p.area_id===d)).map(d=>({id:d,name:d}))],o=Object.keys(this.changes()).length>0,c=this.retentionDays()===void 0;return a`${this.renderError()}
      ${this.notice?a`<div class="notice" role="status" data-testid="settings-saved">${this.notice}</div>`:l}
      <form class="card" data-testid="settings-form" novalidate @submit=${d=>this.save(d)}>
        <h2>${t("settings.title")}</h2>
        <p class="help">${t("settings.help")}</p>
        ${this.check("settings-learning","learning",t("settings.learning"),t("settings.learning_help"))}
        <fieldset class="card">
          <legend>${t("settings.opt_out")}</legend>
          <p class="help">${t("settings.opt_out_help")}</p>
          ${n.length===0?a`<p class="muted">${t("settings.no_areas")}</p>`:n.map(d=>a`<label class="check" for="settings-optout-${d.id}">
                  <input
                    id="settings-optout-${d.id}"
                    data-testid="settings-optout-${d.id}"
                    type="checkbox"
                    .checked=${r.learning_opt_out_areas.includes(d.id)}
                    @change=${p=>this.toggleArea(d.id,p.target.checked)}
                  />
                  <span>${d.name}</span>
                </label>`)}
        </fieldset>
        ${this.check("settings-review","review_extracted",t("settings.review"),t("settings.review_help"))}
        ${this.check("settings-cloud","cloud_personal",t("settings.cloud"),t("settings.cloud_help"))}
        <label class="field" for="settings-retention"
          >${t("settings.retention")}
          <input
            id="settings-retention"
            data-testid="settings-retention"
            type="number"
            inputmode="numeric"
            required
            min=${C.min}
            max=${C.max}
            aria-invalid=${c?"true":"false"}
            aria-describedby=${c?"settings-retention-error":"settings-retention-help"}
            .value=${this.retention}
            @input=${d=>this.typedRetention(d.target.value)}
          />
        </label>
        ${c?a`<p class="error" id="settings-retention-error" role="alert" data-testid="settings-retention-error">
              ${t("settings.retention_invalid",{field:t("settings.retention"),min:C.min,max:C.max})}
            </p>`:l}
        <p class="help" id="settings-retention-help">
          ${t("settings.retention_help",{min:C.min,max:C.max})}
        </p>
        <div class="actions">
          <button class="primary" type="submit" data-testid="settings-save" ?disabled=${this.busy||!o||c}>
            ${t("common.save")}
          </button>
          <button type="button" data-testid="settings-reset" ?disabled=${this.busy||!o&&!c} @click=${()=>this.load()}>
            ${t("settings.reset")}
          </button>
        </div>
      </form>`}};g("hm-settings",qe);function Kt(s){return`household-memory-${typeof s=="string"&&/^\d{4}-\d{2}-\d{2}/.test(s)?s.slice(0,10):"export"}.json`}var De=class extends v{static{this.properties={exported:{state:!0},report:{state:!0}}}reasonText(i){let e=this.ctx.t;if(i.field){let n=ke(this.localize,i.reason,{field:i.field});if(n)return n}let t=`transfer.reason.${i.reason}`,r=e(t);return r!==t?r:e("transfer.reason.other")}async exportAll(){let i=await this.run(()=>this.ctx.api.exportAll());if(!i)return;let e=Kt(i.exported_at),t=new Blob([JSON.stringify(i,null,2)+`
`],{type:"application/json"}),r=URL.createObjectURL(t),n=document.createElement("a");n.href=r,n.download=e,n.hidden=!0,this.renderRoot.appendChild(n),n.click(),n.remove(),URL.revokeObjectURL(r),this.exported={count:Array.isArray(i.memories)?i.memories.length:0,file:e}}async importFile(i){let e=i.target,t=e.files?.[0];if(!t)return;this.report=void 0;let r;try{r=JSON.parse(await t.text())}catch{this.error=this.ctx.t("transfer.invalid_json",{file:t.name}),e.value="";return}let n=await this.run(()=>this.ctx.api.importAll(r));e.value="",n&&(n.rejected.length&&(this.localize=await Se(this.ctx.hass)),this.report=n,this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})))}render(){let i=this.ctx;if(!i)return l;let e=i.t,t=this.report;return a`${this.renderError()}
      <div class="card">
        <h2>${e("transfer.export_title")}</h2>
        <p class="help">${e("transfer.export_help")}</p>
        <div class="actions">
          <button class="primary" data-testid="export-download" ?disabled=${this.busy} @click=${()=>this.exportAll()}>
            ${e("transfer.export")}
          </button>
        </div>
        ${this.exported?a`<p class="notice" role="status" data-testid="export-done">
              ${e("transfer.exported",{n:this.exported.count,file:this.exported.file})}
            </p>`:l}
      </div>
      <div class="card">
        <h2>${e("transfer.import_title")}</h2>
        <p class="help">${e("transfer.import_help")}</p>
        <label class="field" for="import-file"
          >${e("transfer.choose_file")}
          <input
            id="import-file"
            data-testid="import-file"
            type="file"
            accept=".json,application/json"
            ?disabled=${this.busy}
            @change=${r=>this.importFile(r)}
          />
        </label>
        ${t?a`<div class="notice" role="status" data-testid="import-report">
              <p data-testid="import-created">${e("transfer.created",{n:t.created})}</p>
              <p data-testid="import-duplicates">${e("transfer.duplicates",{n:t.duplicates})}</p>
              <p data-testid="import-rejected">${e("transfer.rejected",{n:t.rejected.length})}</p>
              ${t.rejected.length?a`<ul>
                    ${t.rejected.map(r=>a`<li data-testid="import-rejected-item" data-reason=${r.reason}>${e("transfer.rejected_item",{index:r.index+1,reason:this.reasonText(r)})}</li>`)}
                  </ul>`:l}
            </div>`:l}
      </div>`}};g("hm-transfer",De);var Pt=["overview","list","search","pending","forget","consolidate","transfer","settings"],Yt="M3,6H21V8H3V6M3,11H21V13H3V11M3,16H21V18H3V16Z",He=class extends _{constructor(){super();this.narrow=!1;this.tab="overview";this.memoryId="";this.areas=[];this.areasLoaded=!1;this.addEventListener("memory-open",e=>{this.memoryId=e.detail.id}),this.addEventListener("memory-navigate",e=>{let t=e.detail.view;this.memoryId="",Pt.includes(t)&&(this.tab=t)})}static{this.styles=[x,$`
      :host {
        min-height: 100vh;
        background: var(--primary-background-color, #fafafa);
      }
      header {
        display: flex;
        align-items: center;
        gap: 8px;
        height: var(--header-height, 56px);
        padding: 0 12px;
        background: var(--app-header-background-color, var(--primary-color, #03a9f4));
        color: var(--app-header-text-color, var(--text-primary-color, #fff));
        border-bottom: var(--app-header-border-bottom, none);
        position: sticky;
        top: 0;
        z-index: 2;
      }
      header h1 {
        font-size: 20px;
        font-weight: 400;
        margin: 0 0 0 8px;
        flex: 1;
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      header button {
        color: inherit;
        border: none;
        border-radius: 50%;
        width: 48px;
        height: 48px;
        padding: 12px;
        display: inline-flex;
      }
      header button:focus-visible {
        outline-color: currentColor;
      }
      header svg {
        width: 24px;
        height: 24px;
        fill: currentColor;
      }
      nav {
        display: flex;
        overflow-x: auto;
        gap: 4px;
        padding: 0 8px;
        background: var(--app-header-background-color, var(--primary-color, #03a9f4));
        scrollbar-width: none;
      }
      nav button {
        flex: none;
        border: none;
        border-radius: 0;
        border-bottom: 3px solid transparent;
        color: var(--app-header-text-color, var(--text-primary-color, #fff));
        opacity: 0.8;
        min-height: 44px;
        padding: 0 12px;
      }
      nav button[aria-current="page"] {
        opacity: 1;
        border-bottom-color: var(--app-header-text-color, var(--text-primary-color, #fff));
      }
      nav button:focus-visible {
        outline: 2px solid var(--app-header-text-color, var(--text-primary-color, #fff));
        outline-offset: -4px;
      }
      main {
        max-width: 1000px;
        margin: 0 auto;
        padding: 16px;
      }
      main:focus {
        outline: none;
      }
      :host([narrow]) main {
        padding: 8px;
      }
    `]}static{this.properties={hass:{attribute:!1},narrow:{type:Boolean,reflect:!0},tab:{state:!0},memoryId:{state:!0},areas:{state:!0},ctx:{state:!0}}}willUpdate(e){if(!this.hass)return;this.areasLoaded||(this.areasLoaded=!0,this.loadAreas());let t=e.get("hass");(!this.ctx||e.has("areas")||t&&(t.language!==this.hass.language||this.personsChanged(t,this.hass)))&&(this.ctx=yt(this.hass,this.areas))}personsChanged(e,t){let r=n=>Object.keys(n.states).filter(o=>o.startsWith("person.")).map(o=>`${o}=${String(n.states[o].attributes.friendly_name??"")}`).join(`
`);return e.states!==t.states&&r(e)!==r(t)}async loadAreas(){try{let e=await this.hass.callWS({type:"config/area_registry/list"});this.areas=[...e].sort((t,r)=>t.name.localeCompare(r.name))}catch{this.areas=[]}}updated(e){e.has("memoryId")&&e.get("memoryId")!==void 0&&(this.renderRoot.querySelector("main")?.focus({preventScroll:!0}),this.scrollIntoView?.({block:"start"}))}toggleMenu(){this.dispatchEvent(new CustomEvent("hass-toggle-menu",{bubbles:!0,composed:!0}))}select(e){this.memoryId="",this.tab=e}renderView(e){if(this.memoryId)return a`<hm-detail .ctx=${e} .memoryId=${this.memoryId}></hm-detail>`;switch(this.tab){case"overview":return a`<hm-overview .ctx=${e}></hm-overview>`;case"list":return a`<hm-list .ctx=${e}></hm-list>`;case"search":return a`<hm-search .ctx=${e}></hm-search>`;case"pending":return a`<hm-pending .ctx=${e}></hm-pending>`;case"forget":return a`<hm-forget .ctx=${e}></hm-forget>`;case"consolidate":return a`<hm-consolidate .ctx=${e}></hm-consolidate>`;case"transfer":return a`<hm-transfer .ctx=${e}></hm-transfer>`;case"settings":return a`<hm-settings .ctx=${e}></hm-settings>`}}render(){let e=this.ctx;if(!e)return l;let t=e.t;return a`<header>
        ${this.narrow?a`<button data-testid="menu" aria-label=${t("panel.menu")} title=${t("panel.menu")} @click=${this.toggleMenu}>
              <svg viewBox="0 0 24 24" aria-hidden="true"><path d=${Yt}></path></svg>
            </button>`:l}
        <h1 data-testid="panel-title">${t("panel.title")}</h1>
      </header>
      <nav aria-label=${t("panel.sections")}>
        ${Pt.map(r=>a`<button
              data-testid="tab-${r}"
              aria-current=${this.tab===r&&!this.memoryId?"page":"false"}
              @click=${()=>this.select(r)}
            >
              ${t(`tab.${r}`)}
            </button>`)}
      </nav>
      <main tabindex="-1" data-testid="view-${this.memoryId?"memory":this.tab}">${this.renderView(e)}</main>`}};g("household-memory-panel",He);export{He as HouseholdMemoryPanel,Pt as TABS};
/*! Bundled license information:

@lit/reactive-element/css-tag.js:
  (**
   * @license
   * Copyright 2019 Google LLC
   * SPDX-License-Identifier: BSD-3-Clause
   *)

@lit/reactive-element/reactive-element.js:
lit-html/lit-html.js:
lit-element/lit-element.js:
lit-html/directive.js:
lit-html/directives/repeat.js:
  (**
   * @license
   * Copyright 2017 Google LLC
   * SPDX-License-Identifier: BSD-3-Clause
   *)

lit-html/is-server.js:
  (**
   * @license
   * Copyright 2022 Google LLC
   * SPDX-License-Identifier: BSD-3-Clause
   *)

lit-html/directive-helpers.js:
  (**
   * @license
   * Copyright 2020 Google LLC
   * SPDX-License-Identifier: BSD-3-Clause
   *)

lit-html/directives/style-map.js:
  (**
   * @license
   * Copyright 2018 Google LLC
   * SPDX-License-Identifier: BSD-3-Clause
   *)
*/
