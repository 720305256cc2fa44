var Z=globalThis,K=Z.ShadowRoot&&(Z.ShadyCSS===void 0||Z.ShadyCSS.nativeShadow)&&"adoptedStyleSheets"in Document.prototype&&"replace"in CSSStyleSheet.prototype,me=Symbol(),He=new WeakMap,U=class{constructor(t,e,i){if(this._$cssResult$=!0,i!==me)throw Error("CSSResult is not constructable. Use `unsafeCSS` or `css` instead.");this.cssText=t,this.t=e}get styleSheet(){let t=this.o,e=this.t;if(K&&t===void 0){let i=e!==void 0&&e.length===1;i&&(t=He.get(e)),t===void 0&&((this.o=t=new CSSStyleSheet).replaceSync(this.cssText),i&&He.set(e,t))}return t}toString(){return this.cssText}},De=s=>new U(typeof s=="string"?s:s+"",void 0,me),$=(s,...t)=>{let e=s.length===1?s[0]:t.reduce((i,r,n)=>i+(o=>{if(o._$cssResult$===!0)return o.cssText;if(typeof o=="number")return o;throw Error("Value passed to 'css' function must be a 'css' function result: "+o+". Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security.")})(r)+s[n+1],s[0]);return new U(e,s,me)},Ve=(s,t)=>{if(K)s.adoptedStyleSheets=t.map(e=>e instanceof CSSStyleSheet?e:e.styleSheet);else for(let e of t){let i=document.createElement("style"),r=Z.litNonce;r!==void 0&&i.setAttribute("nonce",r),i.textContent=e.cssText,s.appendChild(i)}},he=K?s=>s:s=>s instanceof CSSStyleSheet?(t=>{let e="";for(let i of t.cssRules)e+=i.cssText;return De(e)})(s):s;var{is:kt,defineProperty:Et,getOwnPropertyDescriptor:Pt,getOwnPropertyNames:Rt,getOwnPropertySymbols:Ct,getPrototypeOf:Tt}=Object,Y=globalThis,Ue=Y.trustedTypes,Mt=Ue?Ue.emptyScript:"",Nt=Y.reactiveElementPolyfillSupport,B=(s,t)=>s,fe={toAttribute(s,t){switch(t){case Boolean:s=s?Mt:null;break;case Object:case Array:s=s==null?s:JSON.stringify(s)}return s},fromAttribute(s,t){let e=s;switch(t){case Boolean:e=s!==null;break;case Number:e=s===null?null:Number(s);break;case Object:case Array:try{e=JSON.parse(s)}catch{e=null}}return e}},Fe=(s,t)=>!kt(s,t),Be={attribute:!0,type:String,converter:fe,reflect:!1,useDefault:!1,hasChanged:Fe};Symbol.metadata??=Symbol("metadata"),Y.litPropertyMetadata??=new WeakMap;var S=class extends HTMLElement{static addInitializer(t){this._$Ei(),(this.l??=[]).push(t)}static get observedAttributes(){return this.finalize(),this._$Eh&&[...this._$Eh.keys()]}static createProperty(t,e=Be){if(e.state&&(e.attribute=!1),this._$Ei(),this.prototype.hasOwnProperty(t)&&((e=Object.create(e)).wrapped=!0),this.elementProperties.set(t,e),!e.noAccessor){let i=Symbol(),r=this.getPropertyDescriptor(t,i,e);r!==void 0&&Et(this.prototype,t,r)}}static getPropertyDescriptor(t,e,i){let{get:r,set:n}=Pt(this.prototype,t)??{get(){return this[e]},set(o){this[e]=o}};return{get:r,set(o){let l=r?.call(this);n?.call(this,o),this.requestUpdate(t,l,i)},configurable:!0,enumerable:!0}}static getPropertyOptions(t){return this.elementProperties.get(t)??Be}static _$Ei(){if(this.hasOwnProperty(B("elementProperties")))return;let t=Tt(this);t.finalize(),t.l!==void 0&&(this.l=[...t.l]),this.elementProperties=new Map(t.elementProperties)}static finalize(){if(this.hasOwnProperty(B("finalized")))return;if(this.finalized=!0,this._$Ei(),this.hasOwnProperty(B("properties"))){let e=this.properties,i=[...Rt(e),...Ct(e)];for(let r of i)this.createProperty(r,e[r])}let t=this[Symbol.metadata];if(t!==null){let e=litPropertyMetadata.get(t);if(e!==void 0)for(let[i,r]of e)this.elementProperties.set(i,r)}this._$Eh=new Map;for(let[e,i]of this.elementProperties){let r=this._$Eu(e,i);r!==void 0&&this._$Eh.set(r,e)}this.elementStyles=this.finalizeStyles(this.styles)}static finalizeStyles(t){let e=[];if(Array.isArray(t)){let i=new Set(t.flat(1/0).reverse());for(let r of i)e.unshift(he(r))}else t!==void 0&&e.push(he(t));return e}static _$Eu(t,e){let i=e.attribute;return i===!1?void 0:typeof i=="string"?i:typeof t=="string"?t.toLowerCase():void 0}constructor(){super(),this._$Ep=void 0,this.isUpdatePending=!1,this.hasUpdated=!1,this._$Em=null,this._$Ev()}_$Ev(){this._$ES=new Promise(t=>this.enableUpdating=t),this._$AL=new Map,this._$E_(),this.requestUpdate(),this.constructor.l?.forEach(t=>t(this))}addController(t){(this._$EO??=new Set).add(t),this.renderRoot!==void 0&&this.isConnected&&t.hostConnected?.()}removeController(t){this._$EO?.delete(t)}_$E_(){let t=new Map,e=this.constructor.elementProperties;for(let i of e.keys())this.hasOwnProperty(i)&&(t.set(i,this[i]),delete this[i]);t.size>0&&(this._$Ep=t)}createRenderRoot(){let t=this.shadowRoot??this.attachShadow(this.constructor.shadowRootOptions);return Ve(t,this.constructor.elementStyles),t}connectedCallback(){this.renderRoot??=this.createRenderRoot(),this.enableUpdating(!0),this._$EO?.forEach(t=>t.hostConnected?.())}enableUpdating(t){}disconnectedCallback(){this._$EO?.forEach(t=>t.hostDisconnected?.())}attributeChangedCallback(t,e,i){this._$AK(t,i)}_$ET(t,e){let i=this.constructor.elementProperties.get(t),r=this.constructor._$Eu(t,i);if(r!==void 0&&i.reflect===!0){let n=(i.converter?.toAttribute!==void 0?i.converter:fe).toAttribute(e,i.type);this._$Em=t,n==null?this.removeAttribute(r):this.setAttribute(r,n),this._$Em=null}}_$AK(t,e){let i=this.constructor,r=i._$Eh.get(t);if(r!==void 0&&this._$Em!==r){let n=i.getPropertyOptions(r),o=typeof n.converter=="function"?{fromAttribute:n.converter}:n.converter?.fromAttribute!==void 0?n.converter:fe;this._$Em=r;let l=o.fromAttribute(e,n.type);this[r]=l??this._$Ej?.get(r)??l,this._$Em=null}}requestUpdate(t,e,i,r=!1,n){if(t!==void 0){let o=this.constructor;if(r===!1&&(n=this[t]),i??=o.getPropertyOptions(t),!((i.hasChanged??Fe)(n,e)||i.useDefault&&i.reflect&&n===this._$Ej?.get(t)&&!this.hasAttribute(o._$Eu(t,i))))return;this.C(t,e,i)}this.isUpdatePending===!1&&(this._$ES=this._$EP())}C(t,e,{useDefault:i,reflect:r,wrapped:n},o){i&&!(this._$Ej??=new Map).has(t)&&(this._$Ej.set(t,o??e??this[t]),n!==!0||o!==void 0)||(this._$AL.has(t)||(this.hasUpdated||i||(e=void 0),this._$AL.set(t,e)),r===!0&&this._$Em!==t&&(this._$Eq??=new Set).add(t))}async _$EP(){this.isUpdatePending=!0;try{await this._$ES}catch(e){Promise.reject(e)}let t=this.scheduleUpdate();return t!=null&&await t,!this.isUpdatePending}scheduleUpdate(){return this.performUpdate()}performUpdate(){if(!this.isUpdatePending)return;if(!this.hasUpdated){if(this.renderRoot??=this.createRenderRoot(),this._$Ep){for(let[r,n]of this._$Ep)this[r]=n;this._$Ep=void 0}let i=this.constructor.elementProperties;if(i.size>0)for(let[r,n]of i){let{wrapped:o}=n,l=this[r];o!==!0||this._$AL.has(r)||l===void 0||this.C(r,void 0,n,l)}}let t=!1,e=this._$AL;try{t=this.shouldUpdate(e),t?(this.willUpdate(e),this._$EO?.forEach(i=>i.hostUpdate?.()),this.update(e)):this._$EM()}catch(i){throw t=!1,this._$EM(),i}t&&this._$AE(e)}willUpdate(t){}_$AE(t){this._$EO?.forEach(e=>e.hostUpdated?.()),this.hasUpdated||(this.hasUpdated=!0,this.firstUpdated(t)),this.updated(t)}_$EM(){this._$AL=new Map,this.isUpdatePending=!1}get updateComplete(){return this.getUpdateComplete()}getUpdateComplete(){return this._$ES}shouldUpdate(t){return!0}update(t){this._$Eq&&=this._$Eq.forEach(e=>this._$ET(e,this[e])),this._$EM()}updated(t){}firstUpdated(t){}};S.elementStyles=[],S.shadowRootOptions={mode:"open"},S[B("elementProperties")]=new Map,S[B("finalized")]=new Map,Nt?.({ReactiveElement:S}),(Y.reactiveElementVersions??=[]).push("2.1.2");var ve=globalThis,Ge=s=>s,X=ve.trustedTypes,We=X?X.createPolicy("lit-html",{createHTML:s=>s}):void 0,be="$lit$",k=`lit$${Math.random().toFixed(9).slice(2)}$`,ye="?"+k,Ot=`<${ye}>`,M=document,G=()=>M.createComment(""),W=s=>s===null||typeof s!="object"&&typeof s!="function",_e=Array.isArray,Xe=s=>_e(s)||typeof s?.[Symbol.iterator]=="function",ge=`[ 	
\f\r]`,F=/<(?:(!--|\/[^a-zA-Z])|(\/?[a-zA-Z][^>\s]*)|(\/?$))/g,Je=/-->/g,Qe=/>/g,C=RegExp(`>|${ge}(?:([^\\s"'>=/]+)(${ge}*=${ge}*(?:[^ 	
\f\r"'\`<>=]|("|')|))|$)`,"g"),Ze=/'/g,Ke=/"/g,et=/^(?:script|style|textarea|title)$/i,$e=s=>(t,...e)=>({_$litType$:s,strings:t,values:e}),a=$e(1),Xt=$e(2),ei=$e(3),x=Symbol.for("lit-noChange"),c=Symbol.for("lit-nothing"),Ye=new WeakMap,T=M.createTreeWalker(M,129);function tt(s,t){if(!_e(s)||!s.hasOwnProperty("raw"))throw Error("invalid template strings array");return We!==void 0?We.createHTML(t):t}var it=(s,t)=>{let e=s.length-1,i=[],r,n=t===2?"<svg>":t===3?"<math>":"",o=F;for(let l=0;l<e;l++){let d=s[l],u,h,p=-1,f=0;for(;f<d.length&&(o.lastIndex=f,h=o.exec(d),h!==null);)f=o.lastIndex,o===F?h[1]==="!--"?o=Je:h[1]!==void 0?o=Qe:h[2]!==void 0?(et.test(h[2])&&(r=RegExp("</"+h[2],"g")),o=C):h[3]!==void 0&&(o=C):o===C?h[0]===">"?(o=r??F,p=-1):h[1]===void 0?p=-2:(p=o.lastIndex-h[2].length,u=h[1],o=h[3]===void 0?C:h[3]==='"'?Ke:Ze):o===Ke||o===Ze?o=C:o===Je||o===Qe?o=F:(o=C,r=void 0);let m=o===C&&s[l+1].startsWith("/>")?" ":"";n+=o===F?d+Ot:p>=0?(i.push(u),d.slice(0,p)+be+d.slice(p)+k+m):d+k+(p===-2?l:m)}return[tt(s,n+(s[e]||"<?>")+(t===2?"</svg>":t===3?"</math>":"")),i]},J=class s{constructor({strings:t,_$litType$:e},i){let r;this.parts=[];let n=0,o=0,l=t.length-1,d=this.parts,[u,h]=it(t,e);if(this.el=s.createElement(u,i),T.currentNode=this.el.content,e===2||e===3){let p=this.el.content.firstChild;p.replaceWith(...p.childNodes)}for(;(r=T.nextNode())!==null&&d.length<l;){if(r.nodeType===1){if(r.hasAttributes())for(let p of r.getAttributeNames())if(p.endsWith(be)){let f=h[o++],m=r.getAttribute(p).split(k),y=/([.?@])?(.*)/.exec(f);d.push({type:1,index:n,name:y[2],strings:m,ctor:y[1]==="."?te:y[1]==="?"?ie:y[1]==="@"?re:O}),r.removeAttribute(p)}else p.startsWith(k)&&(d.push({type:6,index:n}),r.removeAttribute(p));if(et.test(r.tagName)){let p=r.textContent.split(k),f=p.length-1;if(f>0){r.textContent=X?X.emptyScript:"";for(let m=0;m<f;m++)r.append(p[m],G()),T.nextNode(),d.push({type:2,index:++n});r.append(p[f],G())}}}else if(r.nodeType===8)if(r.data===ye)d.push({type:2,index:n});else{let p=-1;for(;(p=r.data.indexOf(k,p+1))!==-1;)d.push({type:7,index:n}),p+=k.length-1}n++}}static createElement(t,e){let i=M.createElement("template");return i.innerHTML=t,i}};function N(s,t,e=s,i){if(t===x)return t;let r=i!==void 0?e._$Co?.[i]:e._$Cl,n=W(t)?void 0:t._$litDirective$;return r?.constructor!==n&&(r?._$AO?.(!1),n===void 0?r=void 0:(r=new n(s),r._$AT(s,e,i)),i!==void 0?(e._$Co??=[])[i]=r:e._$Cl=r),r!==void 0&&(t=N(s,r._$AS(s,t.values),r,i)),t}var ee=class{constructor(t,e){this._$AV=[],this._$AN=void 0,this._$AD=t,this._$AM=e}get parentNode(){return this._$AM.parentNode}get _$AU(){return this._$AM._$AU}u(t){let{el:{content:e},parts:i}=this._$AD,r=(t?.creationScope??M).importNode(e,!0);T.currentNode=r;let n=T.nextNode(),o=0,l=0,d=i[0];for(;d!==void 0;){if(o===d.index){let u;d.type===2?u=new z(n,n.nextSibling,this,t):d.type===1?u=new d.ctor(n,d.name,d.strings,this,t):d.type===6&&(u=new se(n,this,t)),this._$AV.push(u),d=i[++l]}o!==d?.index&&(n=T.nextNode(),o++)}return T.currentNode=M,r}p(t){let e=0;for(let i of this._$AV)i!==void 0&&(i.strings!==void 0?(i._$AI(t,i,e),e+=i.strings.length-2):i._$AI(t[e])),e++}},z=class s{get _$AU(){return this._$AM?._$AU??this._$Cv}constructor(t,e,i,r){this.type=2,this._$AH=c,this._$AN=void 0,this._$AA=t,this._$AB=e,this._$AM=i,this.options=r,this._$Cv=r?.isConnected??!0}get parentNode(){let t=this._$AA.parentNode,e=this._$AM;return e!==void 0&&t?.nodeType===11&&(t=e.parentNode),t}get startNode(){return this._$AA}get endNode(){return this._$AB}_$AI(t,e=this){t=N(this,t,e),W(t)?t===c||t==null||t===""?(this._$AH!==c&&this._$AR(),this._$AH=c):t!==this._$AH&&t!==x&&this._(t):t._$litType$!==void 0?this.$(t):t.nodeType!==void 0?this.T(t):Xe(t)?this.k(t):this._(t)}O(t){return this._$AA.parentNode.insertBefore(t,this._$AB)}T(t){this._$AH!==t&&(this._$AR(),this._$AH=this.O(t))}_(t){this._$AH!==c&&W(this._$AH)?this._$AA.nextSibling.data=t:this.T(M.createTextNode(t)),this._$AH=t}$(t){let{values:e,_$litType$:i}=t,r=typeof i=="number"?this._$AC(t):(i.el===void 0&&(i.el=J.createElement(tt(i.h,i.h[0]),this.options)),i);if(this._$AH?._$AD===r)this._$AH.p(e);else{let n=new ee(r,this),o=n.u(this.options);n.p(e),this.T(o),this._$AH=n}}_$AC(t){let e=Ye.get(t.strings);return e===void 0&&Ye.set(t.strings,e=new J(t)),e}k(t){_e(this._$AH)||(this._$AH=[],this._$AR());let e=this._$AH,i,r=0;for(let n of t)r===e.length?e.push(i=new s(this.O(G()),this.O(G()),this,this.options)):i=e[r],i._$AI(n),r++;r<e.length&&(this._$AR(i&&i._$AB.nextSibling,r),e.length=r)}_$AR(t=this._$AA.nextSibling,e){for(this._$AP?.(!1,!0,e);t!==this._$AB;){let i=Ge(t).nextSibling;Ge(t).remove(),t=i}}setConnected(t){this._$AM===void 0&&(this._$Cv=t,this._$AP?.(t))}},O=class{get tagName(){return this.element.tagName}get _$AU(){return this._$AM._$AU}constructor(t,e,i,r,n){this.type=1,this._$AH=c,this._$AN=void 0,this.element=t,this.name=e,this._$AM=r,this.options=n,i.length>2||i[0]!==""||i[1]!==""?(this._$AH=Array(i.length-1).fill(new String),this.strings=i):this._$AH=c}_$AI(t,e=this,i,r){let n=this.strings,o=!1;if(n===void 0)t=N(this,t,e,0),o=!W(t)||t!==this._$AH&&t!==x,o&&(this._$AH=t);else{let l=t,d,u;for(t=n[0],d=0;d<n.length-1;d++)u=N(this,l[i+d],e,d),u===x&&(u=this._$AH[d]),o||=!W(u)||u!==this._$AH[d],u===c?t=c:t!==c&&(t+=(u??"")+n[d+1]),this._$AH[d]=u}o&&!r&&this.j(t)}j(t){t===c?this.element.removeAttribute(this.name):this.element.setAttribute(this.name,t??"")}},te=class extends O{constructor(){super(...arguments),this.type=3}j(t){this.element[this.name]=t===c?void 0:t}},ie=class extends O{constructor(){super(...arguments),this.type=4}j(t){this.element.toggleAttribute(this.name,!!t&&t!==c)}},re=class extends O{constructor(t,e,i,r,n){super(t,e,i,r,n),this.type=5}_$AI(t,e=this){if((t=N(this,t,e,0)??c)===x)return;let i=this._$AH,r=t===c&&i!==c||t.capture!==i.capture||t.once!==i.once||t.passive!==i.passive,n=t!==c&&(i===c||r);r&&this.element.removeEventListener(this.name,this,i),n&&this.element.addEventListener(this.name,this,t),this._$AH=t}handleEvent(t){typeof this._$AH=="function"?this._$AH.call(this.options?.host??this.element,t):this._$AH.handleEvent(t)}},se=class{constructor(t,e,i){this.element=t,this.type=6,this._$AN=void 0,this._$AM=e,this.options=i}get _$AU(){return this._$AM._$AU}_$AI(t){N(this,t)}},rt={M:be,P:k,A:ye,C:1,L:it,R:ee,D:Xe,V:N,I:z,H:O,N:ie,U:re,B:te,F:se},Lt=ve.litHtmlPolyfillSupport;Lt?.(J,z),(ve.litHtmlVersions??=[]).push("3.3.3");var st=(s,t,e)=>{let i=e?.renderBefore??t,r=i._$litPart$;if(r===void 0){let n=e?.renderBefore??null;i._$litPart$=r=new z(t.insertBefore(G(),n),n,void 0,e??{})}return r._$AI(s),r};var xe=globalThis,_=class extends S{constructor(){super(...arguments),this.renderOptions={host:this},this._$Do=void 0}createRenderRoot(){let t=super.createRenderRoot();return this.renderOptions.renderBefore??=t.firstChild,t}update(t){let e=this.render();this.hasUpdated||(this.renderOptions.isConnected=this.isConnected),super.update(t),this._$Do=st(e,this.renderRoot,this.renderOptions)}connectedCallback(){super.connectedCallback(),this._$Do?.setConnected(!0)}disconnectedCallback(){super.disconnectedCallback(),this._$Do?.setConnected(!1)}render(){return x}};_._$litElement$=!0,_.finalized=!0,xe.litElementHydrateSupport?.({LitElement:_});var zt=xe.litElementPolyfillSupport;zt?.({LitElement:_});(xe.litElementVersions??=[]).push("4.2.2");function g(s,t){customElements.get(s)||customElements.define(s,t)}var w=$`
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
`;var we=class extends _{constructor(){super(...arguments);this.text="";this.confirmLabel="";this.cancelLabel=""}static{this.styles=[w,$`
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
    `]}static{this.properties={text:{state:!0},confirmLabel:{state:!0},cancelLabel:{state:!0}}}async ask(e,i,r){return this.resolve?.(!1),this.text=e,this.confirmLabel=i,this.cancelLabel=r,await this.updateComplete,this.renderRoot.querySelector("dialog").showModal(),this.renderRoot.querySelector("[data-testid=confirm-cancel]").focus(),new Promise(o=>this.resolve=o)}close(e){this.renderRoot.querySelector("dialog")?.close(),this.resolve?.(e),this.resolve=void 0}render(){return a`<dialog data-testid="confirm-dialog" aria-labelledby="confirm-text" @cancel=${()=>this.close(!1)}>
      <p id="confirm-text" data-testid="confirm-text">${this.text}</p>
      <div class="actions">
        <button data-testid="confirm-cancel" @click=${()=>this.close(!1)}>${this.cancelLabel}</button>
        <button class="danger" data-testid="confirm-ok" @click=${()=>this.close(!0)}>${this.confirmLabel}</button>
      </div>
    </dialog>`}};g("hm-confirm",we);var oe=["fact","preference","episode","procedure","note"],nt=["private","room","shared","system"],ot=["private","room","shared"],at=["confirmed","observed","extracted","inferred"],lt=["active","pending","superseded","archived"];function jt(s){return Object.fromEntries(Object.entries(s).filter(([,t])=>t!==void 0&&t!==""))}var ne=class{constructor(t){this.hass=t}call(t,e={}){return this.hass.callWS({type:t,...jt(e)})}overview(){return this.call("memory/overview")}list(t,e,i){return this.call("memory/list",{...t,offset:e,limit:i})}search(t,e,i,r,n){return this.call("memory/search",{query:t,person:e,area:i,language:r,limit:n})}get(t){return this.call("memory/get",{memory_id:t})}update(t,e){return this.call("memory/update",{memory_id:t,...e})}pending(){return this.call("memory/pending")}approve(t){return this.call("memory/approve",{memory_id:t})}reject(t){return this.call("memory/reject",{memory_id:t})}forget(t){return this.call("memory/forget",{memory_id:t})}forgetPerson(t){return this.call("memory/forget_person",{person:t})}tombstones(t,e){return this.call("memory/tombstones",{offset:t,limit:e})}liftTombstone(t){return this.call("memory/lift_tombstone",{tombstone_id:t})}consolidate(t){return this.call("memory/consolidate",{dry_run:t})}exportAll(){return this.call("memory/export")}importAll(t){return this.call("memory/import",{data:t})}settings(){return this.call("memory/settings")}updateSettings(t){return this.call("memory/settings/update",t)}areas(){return this.call("config/area_registry/list")}};function dt(s){return Object.values(s.states).filter(t=>t.entity_id.startsWith("person.")).map(t=>({id:t.entity_id,name:String(t.attributes.friendly_name??t.entity_id)})).sort((t,e)=>t.name.localeCompare(e.name))}function ct(s){return s&&typeof s=="object"&&"message"in s?String(s.message):String(s)}var pt={"panel.title":"Gedächtnis","panel.menu":"Seitenleiste öffnen","panel.sections":"Bereiche des Gedächtnis-Panels","tab.overview":"Übersicht","tab.list":"Erinnerungen","tab.search":"Suche","tab.pending":"Prüfen","tab.forget":"Vergessen","tab.consolidate":"Zusammenführen","tab.transfer":"Export & Import","tab.settings":"Lernen","common.back":"Zurück","common.cancel":"Abbrechen","common.loading":"Wird geladen …","common.refresh":"Aktualisieren","common.save":"Speichern","common.yes":"Ja","common.no":"Nein","kind.fact":"Tatsache","kind.preference":"Vorliebe","kind.episode":"Ereignis","kind.procedure":"Ablauf","kind.note":"Notiz","scope.private":"Privat","scope.room":"Raum","scope.shared":"Haushalt","scope.system":"System","scope.private_of":"Privat für {person}","scope.room_of":"Raum: {room}","provenance.confirmed":"Bestätigt","provenance.observed":"Beobachtet","provenance.extracted":"Aus einem Gespräch gelernt","provenance.inferred":"Vermutet","status.active":"Aktuell","status.pending":"Wartet auf Prüfung","status.superseded":"Ersetzt","status.archived":"Zusammengeführt","source.voice":"Sprache","source.service":"Aktion","source.extraction":"Lernen","source.automation":"Automatisierung","source.admin":"Administrator","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Bedeutung","factor.lexical":"Gleiche Wörter","factor.provenance":"Herkunft","factor.importance":"Wichtigkeit","factor.recency":"Aktualität","factor.translation":"Gleiche Wörter in anderer Sprache","factor.named":"Nennt eine Person","factor.about_speaker":"Über den Sprecher","factor.context":"Gesprächskontext","factor.conversation":"Gleiches Gespräch","factor.newer":"Neuerer Wert","said_by.person_room":"Gesagt von {person} in {room}, {time}","said_by.person":"Gesagt von {person}, {time}","said_by.unknown_room":"Gesagt von einem unbekannten Sprecher in {room}, {time}","said_by.unknown":"Gesagt von einem unbekannten Sprecher, {time}","memory.open":"Öffnen","memory.sensitive":"Sensibel","field.content":"Text","field.kind":"Art","field.scope":"Wer es hören darf","field.owner":"Besitzer","field.person":"Person","field.area":"Bereich","field.provenance":"Herkunft","field.status":"Status","field.language":"Sprache","field.said_by":"Gesagt von","field.sensitive":"Sensibel","field.importance":"Wichtigkeit","field.confidence":"Sicherheit","field.fact":"Tatsache","field.source":"Quelle","field.created":"Gespeichert","field.updated":"Zuletzt geändert","field.valid":"Gültig","field.id":"ID","filter.any":"Alle","filter.person":"Person (Besitzer oder Sprecher)","filter.language_hint":"z. B. de","page.previous":"Zurück","page.next":"Weiter","page.range":"{first}–{last} von {total}","page.size":"Pro Seite","overview.pending":"Warten auf Prüfung","overview.tombstones":"Grabsteine","overview.review":"Jetzt prüfen","overview.by_scope":"Erinnerungen nach Sichtbarkeit","overview.by_provenance":"Erinnerungen nach Herkunft","overview.by_status":"Erinnerungen nach Status","overview.none":"Noch keine.","overview.last_consolidation":"Letzte Zusammenführung","overview.never":"Nie","overview.store":"Speicher","overview.encoder":"Encoder","overview.dimension":"{n} Dimensionen","list.title":"Erinnerungen","list.filters":"Filter","list.empty":"Keine Erinnerung passt zu diesen Filtern.","search.title":"Als Sprecher suchen","search.help":"Zeigt, was der Assistent für diese Person in diesem Raum abrufen würde, und warum jede Erinnerung auftaucht.","search.query":"Frage oder Wörter","search.as_person":"Sprecher","search.unknown_speaker":"Unbekannter Sprecher","search.in_area":"Raum","search.no_area":"Kein Raum","search.limit":"Ergebnisse","search.submit":"Suchen","search.empty":"Nichts, was dieser Sprecher hören würde, passt.","search.score":"Punktzahl {score} · Ähnlichkeit {similarity}","search.why":"Warum sie auftaucht","search.outdated":"Ein neuerer Wert hat diesen ersetzt.","search.open_newer":"Neueren Wert öffnen","detail.title":"Erinnerung","detail.said_by":"Wer es gesagt hat","detail.edit":"Bearbeiten","detail.edit_help":"Ein geänderter Text wird wie eine neue Erinnerung geprüft: Geheimnisse werden abgelehnt.","detail.choose":"Auswählen …","detail.saved":"Gespeichert.","detail.forget":"Vergessen","detail.forget_confirm":"„{content}“ vergessen? Der Text wird gelöscht, und ein Grabstein verhindert, dass er wieder gelernt wird.","detail.forgotten":"Vergessen.","history.title":"Verlauf","history.single":"Diese Erinnerung wurde nie geändert.","history.window":"von {from} bis {to}","history.since":"seit {from}","pending.title":"Wartet auf Prüfung","pending.help":"Aus Gesprächen gelernt, während die Prüfung vor der Nutzung eingeschaltet ist. Bestätigte Erinnerungen werden ab dann abgerufen; abgelehnte werden vergessen und nicht wieder gelernt.","pending.empty":"Nichts wartet auf Prüfung.","pending.replaces":"Ersetzt eine gespeicherte Tatsache:","pending.approve":"Bestätigen","pending.reject":"Ablehnen","pending.approved":"Bestätigt.","pending.rejected":"Abgelehnt und vergessen.","forget.person_title":"Eine Person vergessen","forget.person_help":"Vergisst alle privaten Erinnerungen der Person. Raum- und Haushalts-Erinnerungen bleiben, aber nicht mehr als von ihr gesagt. Das lässt sich nicht rückgängig machen.","forget.person_submit":"Erinnerungen der Person vergessen","forget.person_confirm":"Alle privaten Erinnerungen von {person} vergessen? Das lässt sich nicht rückgängig machen.","forget.person_done":"Vergessene private Erinnerungen von {person}: {n}","tombstones.title":"Grabsteine","tombstones.help":"Ein Grabstein verhindert, dass eine vergessene Erinnerung wieder gelernt wird. Er enthält keinen Text. Wird er aufgehoben, kann die Erinnerung wieder gelernt werden.","tombstones.empty":"Keine Grabsteine.","tombstones.created":"Vergessen am {time}","tombstones.lifted_at":"aufgehoben am {time}","tombstones.lift":"Aufheben","tombstones.lifted":"Grabstein aufgehoben.","consolidate.title":"Zusammenführen","consolidate.help":"Hält eine aktuelle Erinnerung pro Tatsache: Wiederholungen werden zusammengeführt, ältere Werte werden Verlauf, ungenutzte Vermutungen entfernt. Läuft auch einmal am Tag. Erst ansehen, was es tun würde, dann ausführen.","consolidate.dry_run":"Zeigen, was es tun würde","consolidate.run":"Jetzt ausführen","consolidate.plan_title":"Was es tun würde","consolidate.done_title":"Erledigt","consolidate.nothing":"Nichts zu tun.","consolidate.merged":"Zusammengeführt","consolidate.superseded":"Ersetzt","consolidate.pruned":"Entfernte Vermutungen","consolidate.judged":"Von der KI-Aufgabe geklärt","consolidate.conflicts":"Mögliche Konflikte","consolidate.changes_title":"Änderungen","consolidate.would_merge":"Zusammenführen","consolidate.would_supersede":"Ersetzen","consolidate.prune_title":"Zu entfernende Vermutungen","consolidate.conflicts_title":"Mögliche Konflikte, die eine Person klären muss","consolidate.similarity":"Ähnlichkeit {value}","transfer.export_title":"Export","transfer.export_help":"Lädt alle Erinnerungen mit Verlauf und Herkunft als lesbare JSON-Datei herunter. Vergessene Erinnerungen erscheinen nur als Anzahl.","transfer.export":"Export herunterladen","transfer.exported":"Exportierte Erinnerungen: {n} ({file})","transfer.import_title":"Import","transfer.import_help":"Liest eine Exportdatei. Jede Erinnerung wird wie eine neue geprüft; Doppelte werden übersprungen, nichts wird überschrieben.","transfer.choose_file":"Exportdatei (JSON)","transfer.invalid_json":"{file} ist keine JSON-Datei.","transfer.created":"Importiert: {n}","transfer.duplicates":"Schon bekannt: {n}","transfer.rejected":"Abgelehnt: {n}","transfer.rejected_item":"Erinnerung {index}: {reason}","settings.title":"Lernen","settings.help":"Dieselben Optionen wie im Optionsdialog der Integration.","settings.learning":"Aus Gesprächen lernen","settings.learning_help":"Der Gedächtnis-Assistent lernt selbstständig Erinnerungen aus Gesprächen. Gesprächsprotokolle werden in jedem Fall gespeichert.","settings.opt_out":"Ausgenommene Bereiche","settings.opt_out_help":"Aus Gesprächen in diesen Bereichen wird nie gelernt.","settings.no_areas":"Es sind keine Bereiche eingerichtet.","settings.review":"Gelernte Erinnerungen vor der Nutzung prüfen","settings.review_help":"Gelernte Erinnerungen warten hier und werden nie abgerufen, bis sie bestätigt oder abgelehnt werden.","settings.cloud":"Persönliche Erinnerungen an ein Cloud-Modell erlauben","settings.cloud_help":"Aus: Gespräche einer erkannten Person werden nie an eine Cloud-KI-Aufgabe gesendet. Sensible Wörter werden nie gesendet, egal was hier steht.","settings.retention":"Aufbewahrung der Gesprächsprotokolle (Tage)","settings.retention_help":"Gespeicherte Gesprächsprotokolle, die älter sind, werden einmal täglich gelöscht ({min} bis {max}).","settings.reset":"Änderungen verwerfen","settings.saved":"Gespeichert."};var Ae={"panel.title":"Memory","panel.menu":"Open the sidebar","panel.sections":"Sections of the memory panel","tab.overview":"Overview","tab.list":"Memories","tab.search":"Search","tab.pending":"Review","tab.forget":"Forget","tab.consolidate":"Consolidate","tab.transfer":"Export & import","tab.settings":"Learning","common.back":"Back","common.cancel":"Cancel","common.loading":"Loading…","common.refresh":"Refresh","common.save":"Save","common.yes":"Yes","common.no":"No","kind.fact":"Fact","kind.preference":"Preference","kind.episode":"Event","kind.procedure":"How-to","kind.note":"Note","scope.private":"Private","scope.room":"Room","scope.shared":"Household","scope.system":"System","scope.private_of":"Private to {person}","scope.room_of":"Room: {room}","provenance.confirmed":"Confirmed","provenance.observed":"Observed","provenance.extracted":"Learned from a conversation","provenance.inferred":"Guessed","status.active":"Current","status.pending":"Awaiting review","status.superseded":"Replaced","status.archived":"Merged","source.voice":"Voice","source.service":"Action","source.extraction":"Learning","source.automation":"Automation","source.admin":"Administrator","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Meaning","factor.lexical":"Matching words","factor.provenance":"Provenance","factor.importance":"Importance","factor.recency":"Recency","factor.translation":"Matching words across languages","factor.named":"Names a person","factor.about_speaker":"About the speaker","factor.context":"Conversation context","factor.conversation":"Same conversation","factor.newer":"Newer value","said_by.person_room":"Said by {person} in {room}, {time}","said_by.person":"Said by {person}, {time}","said_by.unknown_room":"Said by an unknown speaker in {room}, {time}","said_by.unknown":"Said by an unknown speaker, {time}","memory.open":"Open","memory.sensitive":"Sensitive","field.content":"Text","field.kind":"Kind","field.scope":"Who may hear it","field.owner":"Owner","field.person":"Person","field.area":"Area","field.provenance":"Provenance","field.status":"Status","field.language":"Language","field.said_by":"Said by","field.sensitive":"Sensitive","field.importance":"Importance","field.confidence":"Confidence","field.fact":"Fact","field.source":"Source","field.created":"Saved","field.updated":"Last changed","field.valid":"Valid","field.id":"ID","filter.any":"Any","filter.person":"Person (owner or speaker)","filter.language_hint":"e.g. en","page.previous":"Previous","page.next":"Next","page.range":"{first}–{last} of {total}","page.size":"Per page","overview.pending":"Awaiting review","overview.tombstones":"Tombstones","overview.review":"Review now","overview.by_scope":"Memories by who may hear them","overview.by_provenance":"Memories by provenance","overview.by_status":"Memories by status","overview.none":"None yet.","overview.last_consolidation":"Last consolidation","overview.never":"Never","overview.store":"Store","overview.encoder":"Encoder","overview.dimension":"{n} dimensions","list.title":"Memories","list.filters":"Filters","list.empty":"No memories match these filters.","search.title":"Search as a speaker","search.help":"Shows what the assistant would recall for this person in this room, and why each memory surfaced.","search.query":"Question or words","search.as_person":"Speaker","search.unknown_speaker":"Unknown speaker","search.in_area":"Room","search.no_area":"No room","search.limit":"Results","search.submit":"Search","search.empty":"Nothing this speaker would hear matches.","search.score":"Score {score} · similarity {similarity}","search.why":"Why it surfaced","search.outdated":"A newer value has replaced this one.","search.open_newer":"Open the newer value","detail.title":"Memory","detail.said_by":"Who said it","detail.edit":"Edit","detail.edit_help":"A changed text is checked like a new memory: secrets are refused.","detail.choose":"Choose…","detail.saved":"Saved.","detail.forget":"Forget","detail.forget_confirm":"Forget “{content}”? Its text is deleted, and a tombstone keeps it from being learned again.","detail.forgotten":"Forgotten.","history.title":"History","history.single":"This memory has never changed.","history.window":"from {from} until {to}","history.since":"since {from}","pending.title":"Awaiting review","pending.help":"Learned from conversations while review before use is on. Approved memories are recalled from then on; rejected ones are forgotten and not learned again.","pending.empty":"Nothing awaits review.","pending.replaces":"Replaces a saved fact:","pending.approve":"Approve","pending.reject":"Reject","pending.approved":"Approved.","pending.rejected":"Rejected and forgotten.","forget.person_title":"Forget a person","forget.person_help":"Forgets every private memory of the person. Room and household memories stay, no longer recorded as said by them. This cannot be undone.","forget.person_submit":"Forget the person's memories","forget.person_confirm":"Forget every private memory of {person}? This cannot be undone.","forget.person_done":"Private memories of {person} forgotten: {n}","tombstones.title":"Tombstones","tombstones.help":"A tombstone keeps a forgotten memory from being learned again. It holds no text. Lifting it lets the memory be learned again.","tombstones.empty":"No tombstones.","tombstones.created":"Forgotten {time}","tombstones.lifted_at":"lifted {time}","tombstones.lift":"Lift","tombstones.lifted":"Tombstone lifted.","consolidate.title":"Consolidation","consolidate.help":"Keeps one current memory per fact: restatements are merged, older values become history, unused guesses are removed. It also runs once a day. See what it would do first, then run it.","consolidate.dry_run":"Show what it would do","consolidate.run":"Run now","consolidate.plan_title":"What it would do","consolidate.done_title":"Done","consolidate.nothing":"Nothing to do.","consolidate.merged":"Merged","consolidate.superseded":"Replaced","consolidate.pruned":"Removed guesses","consolidate.judged":"Settled by the AI task","consolidate.conflicts":"Possible conflicts","consolidate.changes_title":"Changes","consolidate.would_merge":"Merge","consolidate.would_supersede":"Replace","consolidate.prune_title":"Guesses to remove","consolidate.conflicts_title":"Possible conflicts left for a person","consolidate.similarity":"similarity {value}","transfer.export_title":"Export","transfer.export_help":"Downloads every memory with its history and provenance as a JSON file you can read. Forgotten memories appear only as counts.","transfer.export":"Download export","transfer.exported":"Exported memories: {n} ({file})","transfer.import_title":"Import","transfer.import_help":"Reads an export file. Every memory is checked like a new one; duplicates are skipped and nothing is overwritten.","transfer.choose_file":"Export file (JSON)","transfer.invalid_json":"{file} is not a JSON file.","transfer.created":"Imported: {n}","transfer.duplicates":"Already known: {n}","transfer.rejected":"Refused: {n}","transfer.rejected_item":"Memory {index}: {reason}","settings.title":"Learning","settings.help":"The same options as the integration's options dialog.","settings.learning":"Learn from conversations","settings.learning_help":"The memory assistant learns memories from conversations by itself. Conversation transcripts are stored either way.","settings.opt_out":"Areas that opt out","settings.opt_out_help":"Conversations in these areas are never learned from.","settings.no_areas":"No areas are set up.","settings.review":"Review learned memories before use","settings.review_help":"Learned memories wait here and are never recalled until approved or rejected.","settings.cloud":"Allow personal memories to a cloud model","settings.cloud_help":"Off: a recognised person's conversations are never sent to a cloud AI task. Sensitive words are never sent, whatever this says.","settings.retention":"Transcript retention (days)","settings.retention_help":"Stored conversation transcripts older than this are deleted once a day ({min} to {max}).","settings.reset":"Undo changes","settings.saved":"Saved."};var ut={"panel.title":"Memoria","panel.menu":"Abrir la barra lateral","panel.sections":"Secciones del panel Memoria","tab.overview":"Resumen","tab.list":"Recuerdos","tab.search":"Búsqueda","tab.pending":"Por revisar","tab.forget":"Olvidar","tab.consolidate":"Consolidar","tab.transfer":"Exportar e importar","tab.settings":"Aprendizaje","common.back":"Volver","common.cancel":"Cancelar","common.loading":"Cargando…","common.refresh":"Actualizar","common.save":"Guardar","common.yes":"Sí","common.no":"No","kind.fact":"Hecho","kind.preference":"Preferencia","kind.episode":"Episodio","kind.procedure":"Procedimiento","kind.note":"Nota","scope.private":"Privado","scope.room":"Habitación","scope.shared":"Hogar","scope.system":"Sistema","scope.private_of":"Privado de {person}","scope.room_of":"Habitación: {room}","provenance.confirmed":"Confirmado","provenance.observed":"Observado","provenance.extracted":"Aprendido de una conversación","provenance.inferred":"Supuesto","status.active":"Actual","status.pending":"Pendiente de revisión","status.superseded":"Reemplazado","status.archived":"Fusionado","source.voice":"Voz","source.service":"Acción","source.extraction":"Aprendizaje","source.automation":"Automatización","source.admin":"Administrador","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Significado","factor.lexical":"Palabras en común","factor.provenance":"Procedencia","factor.importance":"Importancia","factor.recency":"Actualidad","factor.translation":"Palabras en común en otro idioma","factor.named":"Nombra a una persona","factor.about_speaker":"Sobre quien habla","factor.context":"Contexto de la conversación","factor.conversation":"Misma conversación","factor.newer":"Valor más reciente","said_by.person_room":"Dicho por {person} en {room}, {time}","said_by.person":"Dicho por {person}, {time}","said_by.unknown_room":"Dicho por un hablante desconocido en {room}, {time}","said_by.unknown":"Dicho por un hablante desconocido, {time}","memory.open":"Abrir","memory.sensitive":"Sensible","field.content":"Texto","field.kind":"Tipo","field.scope":"Quién puede oírlo","field.owner":"Propietario","field.person":"Persona","field.area":"Área","field.provenance":"Procedencia","field.status":"Estado","field.language":"Idioma","field.said_by":"Dicho por","field.sensitive":"Sensible","field.importance":"Importancia","field.confidence":"Confianza","field.fact":"Hecho","field.source":"Origen","field.created":"Guardado","field.updated":"Último cambio","field.valid":"Válido","field.id":"ID","filter.any":"Todos","filter.person":"Persona (propietario o hablante)","filter.language_hint":"p. ej. es","page.previous":"Anterior","page.next":"Siguiente","page.range":"{first}–{last} de {total}","page.size":"Por página","overview.pending":"Pendientes de revisión","overview.tombstones":"Lápidas","overview.review":"Revisar ahora","overview.by_scope":"Recuerdos según quién puede oírlos","overview.by_provenance":"Recuerdos por procedencia","overview.by_status":"Recuerdos por estado","overview.none":"Todavía ninguno.","overview.last_consolidation":"Última consolidación","overview.never":"Nunca","overview.store":"Almacén","overview.encoder":"Codificador","overview.dimension":"{n} dimensiones","list.title":"Recuerdos","list.filters":"Filtros","list.empty":"Ningún recuerdo coincide con estos filtros.","search.title":"Buscar como hablante","search.help":"Muestra lo que el asistente recuperaría para esta persona en esta habitación, y por qué aparece cada recuerdo.","search.query":"Pregunta o palabras","search.as_person":"Hablante","search.unknown_speaker":"Hablante desconocido","search.in_area":"Habitación","search.no_area":"Ninguna habitación","search.limit":"Resultados","search.submit":"Buscar","search.empty":"Nada de lo que este hablante oiría coincide.","search.score":"Puntuación {score} · similitud {similarity}","search.why":"Por qué aparece","search.outdated":"Un valor más reciente ha reemplazado a este.","search.open_newer":"Abrir el valor más reciente","detail.title":"Recuerdo","detail.said_by":"Quién lo dijo","detail.edit":"Editar","detail.edit_help":"Un texto cambiado se comprueba como un recuerdo nuevo: los secretos se rechazan.","detail.choose":"Elegir…","detail.saved":"Guardado.","detail.forget":"Olvidar","detail.forget_confirm":"¿Olvidar «{content}»? Su texto se borra y una lápida impide que se vuelva a aprender.","detail.forgotten":"Olvidado.","history.title":"Historial","history.single":"Este recuerdo nunca ha cambiado.","history.window":"del {from} al {to}","history.since":"desde el {from}","pending.title":"Pendientes de revisión","pending.help":"Aprendidos de conversaciones mientras la revisión antes del uso está activada. Los recuerdos aprobados se recuperan desde entonces; los rechazados se olvidan y no se vuelven a aprender.","pending.empty":"Nada espera revisión.","pending.replaces":"Reemplaza un hecho guardado:","pending.approve":"Aprobar","pending.reject":"Rechazar","pending.approved":"Aprobado.","pending.rejected":"Rechazado y olvidado.","forget.person_title":"Olvidar a una persona","forget.person_help":"Olvida todos los recuerdos privados de la persona. Los recuerdos de habitación y del hogar se quedan, sin constar ya como dichos por ella. No se puede deshacer.","forget.person_submit":"Olvidar los recuerdos de la persona","forget.person_confirm":"¿Olvidar todos los recuerdos privados de {person}? No se puede deshacer.","forget.person_done":"Recuerdos privados de {person} olvidados: {n}","tombstones.title":"Lápidas","tombstones.help":"Una lápida impide que un recuerdo olvidado se vuelva a aprender. No contiene texto. Quitarla permite aprenderlo de nuevo.","tombstones.empty":"No hay lápidas.","tombstones.created":"Olvidado el {time}","tombstones.lifted_at":"quitada el {time}","tombstones.lift":"Quitar","tombstones.lifted":"Lápida quitada.","consolidate.title":"Consolidación","consolidate.help":"Mantiene un solo recuerdo actual por hecho: las reformulaciones se fusionan, los valores antiguos pasan al historial y las suposiciones sin usar se eliminan. También se ejecuta una vez al día. Mira primero lo que haría y luego ejecútala.","consolidate.dry_run":"Mostrar lo que haría","consolidate.run":"Ejecutar ahora","consolidate.plan_title":"Lo que haría","consolidate.done_title":"Hecho","consolidate.nothing":"Nada que hacer.","consolidate.merged":"Fusionados","consolidate.superseded":"Reemplazados","consolidate.pruned":"Suposiciones eliminadas","consolidate.judged":"Resueltos por la Tarea de IA","consolidate.conflicts":"Posibles conflictos","consolidate.changes_title":"Cambios","consolidate.would_merge":"Fusionar","consolidate.would_supersede":"Reemplazar","consolidate.prune_title":"Suposiciones que se eliminarían","consolidate.conflicts_title":"Posibles conflictos que debe resolver una persona","consolidate.similarity":"similitud {value}","transfer.export_title":"Exportar","transfer.export_help":"Descarga todos los recuerdos con su historial y procedencia en un archivo JSON legible. Los recuerdos olvidados solo aparecen como recuentos.","transfer.export":"Descargar la exportación","transfer.exported":"Recuerdos exportados: {n} ({file})","transfer.import_title":"Importar","transfer.import_help":"Lee un archivo de exportación. Cada recuerdo se comprueba como uno nuevo; los duplicados se omiten y nada se sobrescribe.","transfer.choose_file":"Archivo de exportación (JSON)","transfer.invalid_json":"{file} no es un archivo JSON.","transfer.created":"Importados: {n}","transfer.duplicates":"Ya conocidos: {n}","transfer.rejected":"Rechazados: {n}","transfer.rejected_item":"Recuerdo {index}: {reason}","settings.title":"Aprendizaje","settings.help":"Las mismas opciones que el cuadro de opciones de la integración.","settings.learning":"Aprender de las conversaciones","settings.learning_help":"El asistente de memoria aprende recuerdos de las conversaciones por sí mismo. Las transcripciones de las conversaciones se guardan en cualquier caso.","settings.opt_out":"Áreas excluidas","settings.opt_out_help":"De las conversaciones en estas áreas nunca se aprende.","settings.no_areas":"No hay áreas configuradas.","settings.review":"Revisar los recuerdos aprendidos antes de usarlos","settings.review_help":"Los recuerdos aprendidos esperan aquí y nunca se recuperan hasta que se aprueban o se rechazan.","settings.cloud":"Permitir recuerdos personales a un modelo en la nube","settings.cloud_help":"Desactivado: las conversaciones de una persona reconocida nunca se envían a una Tarea de IA en la nube. Las palabras sensibles nunca se envían, diga lo que diga esta opción.","settings.retention":"Conservación de las transcripciones (días)","settings.retention_help":"Las transcripciones guardadas más antiguas se eliminan una vez al día (de {min} a {max}).","settings.reset":"Descartar los cambios","settings.saved":"Guardado."};var mt={"panel.title":"Mémoire","panel.menu":"Ouvrir la barre latérale","panel.sections":"Sections du panneau Mémoire","tab.overview":"Vue d'ensemble","tab.list":"Souvenirs","tab.search":"Recherche","tab.pending":"À vérifier","tab.forget":"Oublier","tab.consolidate":"Consolider","tab.transfer":"Export et import","tab.settings":"Apprentissage","common.back":"Retour","common.cancel":"Annuler","common.loading":"Chargement…","common.refresh":"Actualiser","common.save":"Enregistrer","common.yes":"Oui","common.no":"Non","kind.fact":"Fait","kind.preference":"Préférence","kind.episode":"Épisode","kind.procedure":"Procédure","kind.note":"Note","scope.private":"Privé","scope.room":"Pièce","scope.shared":"Foyer","scope.system":"Système","scope.private_of":"Privé pour {person}","scope.room_of":"Pièce : {room}","provenance.confirmed":"Confirmé","provenance.observed":"Observé","provenance.extracted":"Appris d'une conversation","provenance.inferred":"Supposé","status.active":"Actuel","status.pending":"En attente de vérification","status.superseded":"Remplacé","status.archived":"Fusionné","source.voice":"Voix","source.service":"Action","source.extraction":"Apprentissage","source.automation":"Automatisation","source.admin":"Administrateur","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Sens","factor.lexical":"Mots communs","factor.provenance":"Provenance","factor.importance":"Importance","factor.recency":"Fraîcheur","factor.translation":"Mots communs dans une autre langue","factor.named":"Nomme une personne","factor.about_speaker":"Concerne l'interlocuteur","factor.context":"Contexte de la conversation","factor.conversation":"Même conversation","factor.newer":"Valeur plus récente","said_by.person_room":"Dit par {person} dans {room}, {time}","said_by.person":"Dit par {person}, {time}","said_by.unknown_room":"Dit par un interlocuteur inconnu dans {room}, {time}","said_by.unknown":"Dit par un interlocuteur inconnu, {time}","memory.open":"Ouvrir","memory.sensitive":"Sensible","field.content":"Texte","field.kind":"Type","field.scope":"Qui peut l'entendre","field.owner":"Propriétaire","field.person":"Personne","field.area":"Zone","field.provenance":"Provenance","field.status":"État","field.language":"Langue","field.said_by":"Dit par","field.sensitive":"Sensible","field.importance":"Importance","field.confidence":"Confiance","field.fact":"Fait","field.source":"Source","field.created":"Enregistré","field.updated":"Dernière modification","field.valid":"Valable","field.id":"Identifiant","filter.any":"Tous","filter.person":"Personne (propriétaire ou interlocuteur)","filter.language_hint":"p. ex. fr","page.previous":"Précédent","page.next":"Suivant","page.range":"{first}–{last} sur {total}","page.size":"Par page","overview.pending":"En attente de vérification","overview.tombstones":"Pierres tombales","overview.review":"Vérifier maintenant","overview.by_scope":"Souvenirs selon qui peut les entendre","overview.by_provenance":"Souvenirs par provenance","overview.by_status":"Souvenirs par état","overview.none":"Aucun pour l'instant.","overview.last_consolidation":"Dernière consolidation","overview.never":"Jamais","overview.store":"Stockage","overview.encoder":"Encodeur","overview.dimension":"{n} dimensions","list.title":"Souvenirs","list.filters":"Filtres","list.empty":"Aucun souvenir ne correspond à ces filtres.","search.title":"Rechercher en tant qu'interlocuteur","search.help":"Montre ce que l'assistant rappellerait pour cette personne dans cette pièce, et pourquoi chaque souvenir apparaît.","search.query":"Question ou mots","search.as_person":"Interlocuteur","search.unknown_speaker":"Interlocuteur inconnu","search.in_area":"Pièce","search.no_area":"Aucune pièce","search.limit":"Résultats","search.submit":"Rechercher","search.empty":"Rien de ce que cet interlocuteur entendrait ne correspond.","search.score":"Score {score} · similarité {similarity}","search.why":"Pourquoi il apparaît","search.outdated":"Une valeur plus récente a remplacé celle-ci.","search.open_newer":"Ouvrir la valeur plus récente","detail.title":"Souvenir","detail.said_by":"Qui l'a dit","detail.edit":"Modifier","detail.edit_help":"Un texte modifié est vérifié comme un nouveau souvenir : les secrets sont refusés.","detail.choose":"Choisir…","detail.saved":"Enregistré.","detail.forget":"Oublier","detail.forget_confirm":"Oublier « {content} » ? Son texte est supprimé et une pierre tombale empêche qu'il soit appris de nouveau.","detail.forgotten":"Oublié.","history.title":"Historique","history.single":"Ce souvenir n'a jamais changé.","history.window":"du {from} au {to}","history.since":"depuis le {from}","pending.title":"En attente de vérification","pending.help":"Appris des conversations pendant que la vérification avant usage est activée. Les souvenirs approuvés sont rappelés dès lors ; les souvenirs rejetés sont oubliés et ne sont plus appris.","pending.empty":"Rien n'attend de vérification.","pending.replaces":"Remplace un fait enregistré :","pending.approve":"Approuver","pending.reject":"Rejeter","pending.approved":"Approuvé.","pending.rejected":"Rejeté et oublié.","forget.person_title":"Oublier une personne","forget.person_help":"Oublie tous les souvenirs privés de la personne. Les souvenirs de pièce et du foyer restent, sans plus être attribués à cette personne. Action irréversible.","forget.person_submit":"Oublier les souvenirs de la personne","forget.person_confirm":"Oublier tous les souvenirs privés de {person} ? Action irréversible.","forget.person_done":"Souvenirs privés de {person} oubliés : {n}","tombstones.title":"Pierres tombales","tombstones.help":"Une pierre tombale empêche qu'un souvenir oublié soit appris de nouveau. Elle ne contient aucun texte. La lever permet de l'apprendre à nouveau.","tombstones.empty":"Aucune pierre tombale.","tombstones.created":"Oublié le {time}","tombstones.lifted_at":"levée le {time}","tombstones.lift":"Lever","tombstones.lifted":"Pierre tombale levée.","consolidate.title":"Consolidation","consolidate.help":"Garde un seul souvenir actuel par fait : les reformulations sont fusionnées, les anciennes valeurs passent dans l'historique, les suppositions inutilisées sont supprimées. Elle s'exécute aussi une fois par jour. Voyez d'abord ce qu'elle ferait, puis lancez-la.","consolidate.dry_run":"Voir ce qu'elle ferait","consolidate.run":"Lancer maintenant","consolidate.plan_title":"Ce qu'elle ferait","consolidate.done_title":"Terminé","consolidate.nothing":"Rien à faire.","consolidate.merged":"Fusionnés","consolidate.superseded":"Remplacés","consolidate.pruned":"Suppositions supprimées","consolidate.judged":"Tranchés par la tâche IA","consolidate.conflicts":"Conflits possibles","consolidate.changes_title":"Modifications","consolidate.would_merge":"Fusionner","consolidate.would_supersede":"Remplacer","consolidate.prune_title":"Suppositions à supprimer","consolidate.conflicts_title":"Conflits possibles laissés à une personne","consolidate.similarity":"similarité {value}","transfer.export_title":"Export","transfer.export_help":"Télécharge tous les souvenirs avec leur historique et leur provenance dans un fichier JSON lisible. Les souvenirs oubliés n'apparaissent que sous forme de nombres.","transfer.export":"Télécharger l'export","transfer.exported":"Souvenirs exportés : {n} ({file})","transfer.import_title":"Import","transfer.import_help":"Lit un fichier d'export. Chaque souvenir est vérifié comme un nouveau ; les doublons sont ignorés et rien n'est écrasé.","transfer.choose_file":"Fichier d'export (JSON)","transfer.invalid_json":"{file} n'est pas un fichier JSON.","transfer.created":"Importés : {n}","transfer.duplicates":"Déjà connus : {n}","transfer.rejected":"Refusés : {n}","transfer.rejected_item":"Souvenir {index} : {reason}","settings.title":"Apprentissage","settings.help":"Les mêmes options que dans la boîte de dialogue des options de l'intégration.","settings.learning":"Apprendre des conversations","settings.learning_help":"L'assistant mémoire apprend seul des souvenirs à partir des conversations. Les transcriptions des conversations sont enregistrées dans tous les cas.","settings.opt_out":"Pièces exclues","settings.opt_out_help":"Les conversations dans ces pièces ne servent jamais à apprendre.","settings.no_areas":"Aucune zone n'est configurée.","settings.review":"Vérifier les souvenirs appris avant usage","settings.review_help":"Les souvenirs appris attendent ici et ne sont jamais rappelés avant d'être approuvés ou rejetés.","settings.cloud":"Autoriser les souvenirs personnels vers un modèle cloud","settings.cloud_help":"Désactivé : les conversations d'une personne reconnue ne sont jamais envoyées à une tâche IA cloud. Les mots sensibles ne sont jamais envoyés, quel que soit ce réglage.","settings.retention":"Conservation des transcriptions (jours)","settings.retention_help":"Les transcriptions enregistrées plus anciennes sont supprimées une fois par jour ({min} à {max}).","settings.reset":"Annuler les modifications","settings.saved":"Enregistré."};var ht={"panel.title":"Memoria","panel.menu":"Apri la barra laterale","panel.sections":"Sezioni del pannello Memoria","tab.overview":"Panoramica","tab.list":"Ricordi","tab.search":"Ricerca","tab.pending":"Da rivedere","tab.forget":"Dimentica","tab.consolidate":"Consolida","tab.transfer":"Esporta e importa","tab.settings":"Apprendimento","common.back":"Indietro","common.cancel":"Annulla","common.loading":"Caricamento…","common.refresh":"Aggiorna","common.save":"Salva","common.yes":"Sì","common.no":"No","kind.fact":"Fatto","kind.preference":"Preferenza","kind.episode":"Episodio","kind.procedure":"Procedura","kind.note":"Nota","scope.private":"Privato","scope.room":"Stanza","scope.shared":"Famiglia","scope.system":"Sistema","scope.private_of":"Privato di {person}","scope.room_of":"Stanza: {room}","provenance.confirmed":"Confermato","provenance.observed":"Osservato","provenance.extracted":"Appreso da una conversazione","provenance.inferred":"Supposto","status.active":"Attuale","status.pending":"In attesa di revisione","status.superseded":"Sostituito","status.archived":"Unito","source.voice":"Voce","source.service":"Azione","source.extraction":"Apprendimento","source.automation":"Automazione","source.admin":"Amministratore","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Significato","factor.lexical":"Parole in comune","factor.provenance":"Provenienza","factor.importance":"Importanza","factor.recency":"Recenza","factor.translation":"Parole in comune in un'altra lingua","factor.named":"Nomina una persona","factor.about_speaker":"Riguarda chi parla","factor.context":"Contesto della conversazione","factor.conversation":"Stessa conversazione","factor.newer":"Valore più recente","said_by.person_room":"Detto da {person} in {room}, {time}","said_by.person":"Detto da {person}, {time}","said_by.unknown_room":"Detto da un interlocutore sconosciuto in {room}, {time}","said_by.unknown":"Detto da un interlocutore sconosciuto, {time}","memory.open":"Apri","memory.sensitive":"Sensibile","field.content":"Testo","field.kind":"Tipo","field.scope":"Chi può sentirlo","field.owner":"Proprietario","field.person":"Persona","field.area":"Area","field.provenance":"Provenienza","field.status":"Stato","field.language":"Lingua","field.said_by":"Detto da","field.sensitive":"Sensibile","field.importance":"Importanza","field.confidence":"Affidabilità","field.fact":"Fatto","field.source":"Origine","field.created":"Salvato","field.updated":"Ultima modifica","field.valid":"Valido","field.id":"ID","filter.any":"Tutti","filter.person":"Persona (proprietario o interlocutore)","filter.language_hint":"es. it","page.previous":"Precedente","page.next":"Successiva","page.range":"{first}–{last} di {total}","page.size":"Per pagina","overview.pending":"In attesa di revisione","overview.tombstones":"Lapidi","overview.review":"Rivedi ora","overview.by_scope":"Ricordi per chi può sentirli","overview.by_provenance":"Ricordi per provenienza","overview.by_status":"Ricordi per stato","overview.none":"Ancora nessuno.","overview.last_consolidation":"Ultima consolidazione","overview.never":"Mai","overview.store":"Archivio","overview.encoder":"Encoder","overview.dimension":"{n} dimensioni","list.title":"Ricordi","list.filters":"Filtri","list.empty":"Nessun ricordo corrisponde a questi filtri.","search.title":"Cerca come interlocutore","search.help":"Mostra cosa richiamerebbe l'assistente per questa persona in questa stanza, e perché emerge ogni ricordo.","search.query":"Domanda o parole","search.as_person":"Interlocutore","search.unknown_speaker":"Interlocutore sconosciuto","search.in_area":"Stanza","search.no_area":"Nessuna stanza","search.limit":"Risultati","search.submit":"Cerca","search.empty":"Niente di ciò che questo interlocutore sentirebbe corrisponde.","search.score":"Punteggio {score} · somiglianza {similarity}","search.why":"Perché emerge","search.outdated":"Un valore più recente ha sostituito questo.","search.open_newer":"Apri il valore più recente","detail.title":"Ricordo","detail.said_by":"Chi l'ha detto","detail.edit":"Modifica","detail.edit_help":"Un testo modificato viene controllato come un nuovo ricordo: i segreti vengono rifiutati.","detail.choose":"Scegli…","detail.saved":"Salvato.","detail.forget":"Dimentica","detail.forget_confirm":"Dimenticare «{content}»? Il testo viene cancellato e una lapide impedisce che venga appreso di nuovo.","detail.forgotten":"Dimenticato.","history.title":"Cronologia","history.single":"Questo ricordo non è mai cambiato.","history.window":"dal {from} al {to}","history.since":"dal {from}","pending.title":"In attesa di revisione","pending.help":"Appresi dalle conversazioni mentre la revisione prima dell'uso è attiva. I ricordi approvati vengono richiamati da quel momento; quelli rifiutati vengono dimenticati e non più appresi.","pending.empty":"Niente in attesa di revisione.","pending.replaces":"Sostituisce un fatto salvato:","pending.approve":"Approva","pending.reject":"Rifiuta","pending.approved":"Approvato.","pending.rejected":"Rifiutato e dimenticato.","forget.person_title":"Dimentica una persona","forget.person_help":"Dimentica tutti i ricordi privati della persona. I ricordi di stanza e della famiglia restano, senza più essere attribuiti a lei. Non si può annullare.","forget.person_submit":"Dimentica i ricordi della persona","forget.person_confirm":"Dimenticare tutti i ricordi privati di {person}? Non si può annullare.","forget.person_done":"Ricordi privati di {person} dimenticati: {n}","tombstones.title":"Lapidi","tombstones.help":"Una lapide impedisce che un ricordo dimenticato venga appreso di nuovo. Non contiene testo. Rimuoverla permette di apprenderlo di nuovo.","tombstones.empty":"Nessuna lapide.","tombstones.created":"Dimenticato il {time}","tombstones.lifted_at":"rimossa il {time}","tombstones.lift":"Rimuovi","tombstones.lifted":"Lapide rimossa.","consolidate.title":"Consolidazione","consolidate.help":"Mantiene un solo ricordo attuale per fatto: le riformulazioni vengono unite, i valori più vecchi diventano cronologia, le supposizioni mai usate vengono eliminate. Viene eseguita anche una volta al giorno. Prima guarda cosa farebbe, poi eseguila.","consolidate.dry_run":"Mostra cosa farebbe","consolidate.run":"Esegui ora","consolidate.plan_title":"Cosa farebbe","consolidate.done_title":"Fatto","consolidate.nothing":"Niente da fare.","consolidate.merged":"Uniti","consolidate.superseded":"Sostituiti","consolidate.pruned":"Supposizioni eliminate","consolidate.judged":"Decisi dall'AI Task","consolidate.conflicts":"Possibili conflitti","consolidate.changes_title":"Modifiche","consolidate.would_merge":"Unisci","consolidate.would_supersede":"Sostituisci","consolidate.prune_title":"Supposizioni da eliminare","consolidate.conflicts_title":"Possibili conflitti lasciati a una persona","consolidate.similarity":"somiglianza {value}","transfer.export_title":"Esporta","transfer.export_help":"Scarica tutti i ricordi con cronologia e provenienza in un file JSON leggibile. I ricordi dimenticati compaiono solo come conteggi.","transfer.export":"Scarica l'esportazione","transfer.exported":"Ricordi esportati: {n} ({file})","transfer.import_title":"Importa","transfer.import_help":"Legge un file di esportazione. Ogni ricordo viene controllato come uno nuovo; i doppioni vengono saltati e nulla viene sovrascritto.","transfer.choose_file":"File di esportazione (JSON)","transfer.invalid_json":"{file} non è un file JSON.","transfer.created":"Importati: {n}","transfer.duplicates":"Già noti: {n}","transfer.rejected":"Rifiutati: {n}","transfer.rejected_item":"Ricordo {index}: {reason}","settings.title":"Apprendimento","settings.help":"Le stesse opzioni della finestra delle opzioni dell'integrazione.","settings.learning":"Impara dalle conversazioni","settings.learning_help":"L'assistente memoria impara da solo i ricordi dalle conversazioni. Le trascrizioni delle conversazioni vengono salvate comunque.","settings.opt_out":"Aree escluse","settings.opt_out_help":"Dalle conversazioni in queste aree non si impara mai.","settings.no_areas":"Nessuna area configurata.","settings.review":"Rivedi i ricordi appresi prima dell'uso","settings.review_help":"I ricordi appresi attendono qui e non vengono mai richiamati finché non sono approvati o rifiutati.","settings.cloud":"Consenti ricordi personali a un modello cloud","settings.cloud_help":"Disattivato: le conversazioni di una persona riconosciuta non vanno mai a un AI Task cloud. Le parole sensibili non vengono mai inviate, qualunque sia questa impostazione.","settings.retention":"Conservazione delle trascrizioni (giorni)","settings.retention_help":"Le trascrizioni salvate più vecchie di così vengono eliminate una volta al giorno (da {min} a {max}).","settings.reset":"Annulla le modifiche","settings.saved":"Salvato."};var Se={de:pt,en:Ae,es:ut,fr:mt,it:ht};function ke(s){let t=(s??"en").toLowerCase();if(t in Se)return t;let e=t.split("-")[0];return e in Se?e:"en"}function ft(s){let t=Se[ke(s)];return(e,i)=>{let r=t[e]??Ae[e]??e;return i?r.replace(/\{(\w+)\}/g,(n,o)=>o in i?String(i[o]):n):r}}function gt(s,t){let e=ke(s.language),i=s.language||e,r=new Intl.DateTimeFormat(i,{dateStyle:"medium",timeStyle:"short"}),n=dt(s),o=ft(s.language);return{hass:s,api:new ne(s),t:o,label:(l,d)=>{let u=`${l}.${d}`,h=o(u);return h===u?d:h},language:e,persons:n,areas:t,time:l=>{if(!l)return"";let d=new Date(l);return Number.isNaN(d.getTime())?l:r.format(d)},number:(l,d=2)=>new Intl.NumberFormat(i,{minimumFractionDigits:d,maximumFractionDigits:d}).format(l),personName:l=>l?n.find(d=>d.id===l)?.name??l:"",areaName:l=>l?t.find(d=>d.area_id===l)?.name??l:""}}function L(s,t){s.dispatchEvent(new CustomEvent("memory-open",{detail:{id:t},bubbles:!0,composed:!0}))}function ae(s,t){s.dispatchEvent(new CustomEvent("memory-navigate",{detail:{view:t},bubbles:!0,composed:!0}))}var v=class extends _{constructor(){super(...arguments);this.error="";this.busy=!1;this.started=!1}static{this.styles=w}static{this.properties={ctx:{attribute:!1},error:{state:!0},busy:{state:!0}}}start(){}willUpdate(e){super.willUpdate(e),!this.started&&this.ctx&&(this.started=!0,this.start())}async run(e){this.busy=!0,this.error="";try{return await e()}catch(i){this.error=ct(i);return}finally{this.busy=!1}}renderError(){return this.error?a`<div class="error" role="alert" data-testid="error">${this.error}</div>`:c}};function b(s,t,e,i,r){return a`<label class="field" for=${s}
    >${t}
    <select
      id=${s}
      data-testid=${s}
      .value=${e}
      @change=${n=>r(n.target.value)}
    >
      ${i.map(n=>a`<option value=${n.value} ?selected=${n.value===e}>${n.label}</option>`)}
    </select></label
  >`}function P(s,t,e,i){let r=e.map(n=>({value:n,label:s.label(t,n)}));return i===void 0?r:[{value:"",label:i},...r]}function E(s,t){let e=s.persons.map(i=>({value:i.id,label:i.name}));return t===void 0?e:[{value:"",label:t},...e]}function j(s,t){let e=s.areas.map(i=>({value:i.area_id,label:i.name}));return t===void 0?e:[{value:"",label:t},...e]}function I(s,t){let e=t.person_name||s.personName(t.person_id),i=t.area_name||s.areaName(t.area_id),r=`said_by.${e?"person":"unknown"}${i?"_room":""}`;return a`<div
    class="said-by"
    data-testid="said-by"
    data-person=${t.person_id??""}
    data-area=${t.area_id??""}
  >
    ${s.t(r,{person:e,room:i,time:s.time(t.at)})}
  </div>`}function Ee(s,t){let e=s.t,i=t.scope==="private"&&t.owner_id?e("scope.private_of",{person:s.personName(t.owner_id)}):t.scope==="room"&&t.area_id?e("scope.room_of",{room:s.areaName(t.area_id)}):s.label("scope",t.scope);return a`<div class="chips">
    <span class="chip" data-testid="chip-kind">${s.label("kind",t.kind)}</span>
    <span class="chip" data-testid="chip-scope">${i}</span>
    <span class="chip" data-testid="chip-provenance">${s.label("provenance",t.provenance)}</span>
    <span class="chip ${t.status==="active"?"":"warn"}" data-testid="chip-status">${s.label("status",t.status)}</span>
    <span class="chip" data-testid="chip-language">${t.language}</span>
    ${t.sensitive?a`<span class="chip warn" data-testid="chip-sensitive">${e("memory.sensitive")}</span>`:c}
  </div>`}function q(s,t,e,i=c,r="memory-item"){return a`<li class="card" data-testid=${r} data-memory-id=${e.id}>
    <div class="content" data-testid="memory-content">${e.content}</div>
    ${Ee(s,e)} ${I(s,e.said_by)}
    <div class="actions">
      <button data-testid="open-memory" @click=${()=>L(t,e.id)}>${s.t("memory.open")}</button>
    </div>
    ${i}
  </li>`}function Q(s,t,e,i,r,n){let o=r===0?0:e+1,l=Math.min(e+i,r);return a`<div class="row pager">
    <button data-testid="${t}-prev" ?disabled=${e<=0} @click=${()=>n(Math.max(0,e-i))}>
      ${s.t("page.previous")}
    </button>
    <span data-testid="${t}-range" aria-live="polite">${s.t("page.range",{first:o,last:l,total:r})}</span>
    <button data-testid="${t}-next" ?disabled=${l>=r} @click=${()=>n(e+i)}>
      ${s.t("page.next")}
    </button>
  </div>`}var Pe=class extends v{static{this.properties={plan:{state:!0},done:{state:!0}}}async dryRun(){this.done=void 0;let t=await this.run(()=>this.ctx.api.consolidate(!0));t&&(this.plan=t)}async runNow(){let t=await this.run(()=>this.ctx.api.consolidate(!1));t&&(this.done=t,this.plan=void 0,this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})))}link(t){return a`<button class="link" @click=${()=>L(this,t.id)}>${t.content??t.id}</button>`}renderCounts(t){let e=this.ctx.t,i=(r,n)=>a`<div class="count" data-testid="consolidate-${r}"><span class="n">${n}</span><span class="label">${e(`consolidate.${r}`)}</span></div>`;return a`<div class="counts">
      ${i("merged",t.merged)} ${i("superseded",t.superseded)} ${i("pruned",t.pruned)}
      ${t.judged!==void 0?i("judged",t.judged):c} ${i("conflicts",t.conflicts.length)}
    </div>`}renderConflicts(t){let e=this.ctx;return t.conflicts.length?a`<h3>${e.t("consolidate.conflicts_title")}</h3>
      <ul data-testid="consolidate-conflict-list">
        ${t.conflicts.map(i=>a`<li>
              ${this.link(i.older)} → ${this.link(i.newer)}
              <span class="muted">(${e.t("consolidate.similarity",{value:e.number(i.similarity)})})</span>
            </li>`)}
      </ul>`:c}renderPlan(t){let i=this.ctx.t,r=t.changes??[],n=t.prune??[];return a`<div class="card" data-testid="consolidate-plan">
      <h2>${i("consolidate.plan_title")}</h2>
      ${this.renderCounts(t)}
      ${r.length===0&&n.length===0&&t.conflicts.length===0?a`<p class="muted" data-testid="consolidate-nothing">${i("consolidate.nothing")}</p>`:c}
      ${r.length?a`<h3>${i("consolidate.changes_title")}</h3>
            <ul data-testid="consolidate-changes">
              ${r.map(o=>a`<li data-memory-id=${o.id}>
                    ${i(o.status==="archived"?"consolidate.would_merge":"consolidate.would_supersede")}:
                    ${this.link(o)} → ${this.link(o.by)}
                  </li>`)}
            </ul>`:c}
      ${n.length?a`<h3>${i("consolidate.prune_title")}</h3>
            <ul data-testid="consolidate-prune">
              ${n.map(o=>a`<li>${this.link({id:o,content:null})}</li>`)}
            </ul>`:c}
      ${this.renderConflicts(t)}
      <div class="actions">
        <button class="primary" data-testid="consolidate-run" ?disabled=${this.busy} @click=${()=>this.runNow()}>
          ${i("consolidate.run")}
        </button>
      </div>
    </div>`}render(){let t=this.ctx;if(!t)return c;let e=t.t;return a`<div class="card">
        <h2>${e("consolidate.title")}</h2>
        <p class="help">${e("consolidate.help")}</p>
        <div class="actions">
          <button data-testid="consolidate-dry-run" ?disabled=${this.busy} @click=${()=>this.dryRun()}>
            ${e("consolidate.dry_run")}
          </button>
        </div>
      </div>
      ${this.renderError()} ${this.plan?this.renderPlan(this.plan):c}
      ${this.done?a`<div class="card" data-testid="consolidate-done">
            <h2>${e("consolidate.done_title")}</h2>
            ${this.renderCounts(this.done)} ${this.renderConflicts(this.done)}
          </div>`:c}`}};g("hm-consolidate",Pe);var le={ATTRIBUTE:1,CHILD:2,PROPERTY:3,BOOLEAN_ATTRIBUTE:4,EVENT:5,ELEMENT:6},de=s=>(...t)=>({_$litDirective$:s,values:t}),H=class{constructor(t){}get _$AU(){return this._$AM._$AU}_$AT(t,e,i){this._$Ct=t,this._$AM=e,this._$Ci=i}_$AS(t,e){return this.update(t,e)}update(t,e){return this.render(...e)}};var{I:Ut}=rt,vt=s=>s;var bt=()=>document.createComment(""),D=(s,t,e)=>{let i=s._$AA.parentNode,r=t===void 0?s._$AB:t._$AA;if(e===void 0){let n=i.insertBefore(bt(),r),o=i.insertBefore(bt(),r);e=new Ut(n,o,s,s.options)}else{let n=e._$AB.nextSibling,o=e._$AM,l=o!==s;if(l){let d;e._$AQ?.(s),e._$AM=s,e._$AP!==void 0&&(d=s._$AU)!==o._$AU&&e._$AP(d)}if(n!==r||l){let d=e._$AA;for(;d!==n;){let u=vt(d).nextSibling;vt(i).insertBefore(d,r),d=u}}}return e},R=(s,t,e=s)=>(s._$AI(t,e),s),Bt={},yt=(s,t=Bt)=>s._$AH=t,_t=s=>s._$AH,ce=s=>{s._$AR(),s._$AA.remove()};var $t=(s,t,e)=>{let i=new Map;for(let r=t;r<=e;r++)i.set(s[r],r);return i},V=de(class extends H{constructor(s){if(super(s),s.type!==le.CHILD)throw Error("repeat() can only be used in text expressions")}dt(s,t,e){let i;e===void 0?e=t:t!==void 0&&(i=t);let r=[],n=[],o=0;for(let l of s)r[o]=i?i(l,o):o,n[o]=e(l,o),o++;return{values:n,keys:r}}render(s,t,e){return this.dt(s,t,e).values}update(s,[t,e,i]){let r=_t(s),{values:n,keys:o}=this.dt(t,e,i);if(!Array.isArray(r))return this.ut=o,n;let l=this.ut??=[],d=[],u,h,p=0,f=r.length-1,m=0,y=n.length-1;for(;p<=f&&m<=y;)if(r[p]===null)p++;else if(r[f]===null)f--;else if(l[p]===o[m])d[m]=R(r[p],n[m]),p++,m++;else if(l[f]===o[y])d[y]=R(r[f],n[y]),f--,y--;else if(l[p]===o[y])d[y]=R(r[p],n[y]),D(s,d[y+1],r[p]),p++,y--;else if(l[f]===o[m])d[m]=R(r[f],n[m]),D(s,r[p],r[f]),f--,m++;else if(u===void 0&&(u=$t(o,m,y),h=$t(l,p,f)),u.has(l[p]))if(u.has(l[f])){let A=h.get(o[m]),ue=A!==void 0?r[A]:null;if(ue===null){let qe=D(s,r[p]);R(qe,n[m]),d[m]=qe}else d[m]=R(ue,n[m]),D(s,r[p],ue),r[A]=null;m++}else ce(r[f]),f--;else ce(r[p]),p++;for(;m<=y;){let A=D(s,d[y+1]);R(A,n[m]),d[m++]=A}for(;p<=f;){let A=r[p++];A!==null&&ce(A)}return this.ut=o,yt(s,d),x}});var xt="important",Ft=" !"+xt,wt=de(class extends H{constructor(s){if(super(s),s.type!==le.ATTRIBUTE||s.name!=="style"||s.strings?.length>2)throw Error("The `styleMap` directive must be used in the `style` attribute and must be the only part in the attribute.")}render(s){return Object.keys(s).reduce((t,e)=>{let i=s[e];return i==null?t:t+`${e=e.includes("-")?e:e.replace(/(?:^(webkit|moz|ms|o)|)(?=[A-Z])/g,"-$&").toLowerCase()}:${i};`},"")}update(s,[t]){let{style:e}=s.element;if(this.ft===void 0)return this.ft=new Set(Object.keys(t)),this.render(t);for(let i of this.ft)t[i]==null&&(this.ft.delete(i),i.includes("-")?e.removeProperty(i):e[i]=null);for(let i in t){let r=t[i];if(r!=null){this.ft.add(i);let n=typeof r=="string"&&r.endsWith(Ft);i.includes("-")||n?e.setProperty(i,n?r.slice(0,-11):r,n?xt:""):e[i]=r}}return x}});var Ce=1e3,Re=class extends v{constructor(){super(...arguments);this.query="";this.person="";this.area="";this.language="";this.limit=10}static{this.styles=[w,$`
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
    `]}static{this.properties={query:{state:!0},person:{state:!0},area:{state:!0},language:{state:!0},limit:{state:!0},hits:{state:!0}}}async search(e){if(e?.preventDefault(),!this.query.trim())return;let i=this.ctx,r=await this.run(()=>i.api.search(this.query,this.person||void 0,this.area||void 0,this.language.trim()||void 0,this.limit));r&&(this.hits=r.hits)}factors(e){let i=this.ctx,r=Object.entries(e.factors).sort(([,o],[,l])=>Math.abs(l)-Math.abs(o)),n=Math.max(...r.map(([,o])=>Math.abs(o)),1e-9);return a`<table class="factors" data-testid="hit-factors">
      <caption class="help">${i.t("search.why")}</caption>
      ${r.map(([o,l])=>a`<tr data-testid="factor" data-factor=${o}>
            <th scope="row">${i.label("factor",o)}</th>
            <td class="value">${i.number(l)}</td>
            <td class="bar" aria-hidden="true">
              <span
                class=${l<0?"negative":""}
                style=${wt({width:`${(Math.abs(l)/n*100).toFixed(1)}%`})}
              ></span>
            </td>
          </tr>`)}
    </table>`}renderHit(e){let i=this.ctx,r=i.t,n=a`<div class="score" data-testid="hit-score">
        ${r("search.score",{score:i.number(e.score),similarity:i.number(e.similarity)})}
      </div>
      ${e.outdated_by?a`<p class="help" data-testid="hit-outdated">
            ${r("search.outdated")}
            <button class="link" @click=${()=>L(this,e.outdated_by)}>${r("search.open_newer")}</button>
          </p>`:c}
      ${this.factors(e)}`;return q(i,this,e.memory,n,"search-hit")}render(){let e=this.ctx;if(!e)return c;let i=e.t;return a`<form class="card" @submit=${r=>this.search(r)}>
        <h2>${i("search.title")}</h2>
        <p class="help">${i("search.help")}</p>
        <label class="field" for="search-query"
          >${i("search.query")}
          <input
            id="search-query"
            data-testid="search-query"
            type="search"
            required
            maxlength=${Ce}
            .value=${this.query}
            @input=${r=>this.query=r.target.value}
          />
        </label>
        <div class="grid spaced">
          ${b("search-person",i("search.as_person"),this.person,E(e,i("search.unknown_speaker")),r=>this.person=r)}
          ${b("search-area",i("search.in_area"),this.area,j(e,i("search.no_area")),r=>this.area=r)}
          <label class="field" for="search-language"
            >${i("field.language")}
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
            >${i("search.limit")}
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
          <button class="primary" type="submit" data-testid="search-submit" ?disabled=${this.busy}>${i("search.submit")}</button>
        </div>
      </form>
      ${this.renderError()}
      ${this.hits===void 0?c:this.hits.length===0?a`<p class="muted" data-testid="search-empty">${i("search.empty")}</p>`:a`<ul class="plain" data-testid="search-hits">
              ${V(this.hits,r=>r.memory.id,r=>this.renderHit(r))}
            </ul>`}`}};g("hm-search",Re);var Te=class extends v{constructor(){super(...arguments);this.memoryId="";this.notice="";this.gone=!1}static{this.styles=[w,$`
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
    `]}static{this.properties={memoryId:{attribute:!1},data:{state:!0},draft:{state:!0},notice:{state:!0},gone:{state:!0}}}start(){this.load(this.memoryId)}willUpdate(e){super.willUpdate(e),e.has("memoryId")&&e.get("memoryId")&&this.ctx&&(this.notice="",this.load(this.memoryId))}async load(e){this.draft=void 0,this.gone=!1;let i=await this.run(()=>this.ctx.api.get(e));i&&(this.data=i)}changed(){this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0}))}edit(e){this.notice="",this.draft={content:e.content,kind:e.kind,scope:e.scope,owner:e.owner_id??"",area:e.area_id??""}}async save(e){e.preventDefault();let i=this.data.memory,r=this.draft,n={};if(r.content!==i.content&&(n.content=r.content),r.kind!==i.kind&&(n.kind=r.kind),r.scope!==i.scope&&(n.scope=r.scope),r.scope==="private"&&r.owner&&r.owner!==i.owner_id&&(n.owner=r.owner),r.scope==="room"&&r.area&&r.area!==i.area_id&&(n.area=r.area),Object.keys(n).length===0){this.draft=void 0;return}let o=await this.run(()=>this.ctx.api.update(i.id,n));o&&(this.notice=this.ctx.t("detail.saved"),this.changed(),await this.load(o.memory.id))}async forget(){let e=this.ctx.t,i=this.data.memory;await this.renderRoot.querySelector("hm-confirm").ask(e("detail.forget_confirm",{content:i.content}),e("detail.forget"),e("common.cancel"))&&await this.run(()=>this.ctx.api.forget(i.id))&&(this.gone=!0,this.notice=e("detail.forgotten"),this.changed())}async review(e){let i=this.ctx,r=this.data.memory;if(e){let n=await this.run(()=>i.api.approve(r.id));n&&(this.notice=i.t("pending.approved"),this.changed(),await this.load(n.memory.id))}else await this.run(()=>i.api.reject(r.id))&&(this.gone=!0,this.notice=i.t("pending.rejected"),this.changed())}window(e){let i=this.ctx.t,r=this.ctx.time(e.valid_from??e.created_at);return e.valid_to?i("history.window",{from:r,to:this.ctx.time(e.valid_to)}):i("history.since",{from:r})}renderFields(e){let i=this.ctx,r=i.t,n=(o,l,d)=>l==null||l===""?c:a`<dt>${o}</dt>
            <dd data-testid=${d}>${l}</dd>`;return a`<dl class="fields">
      ${n(r("field.kind"),i.label("kind",e.kind),"field-kind")}
      ${n(r("field.scope"),i.label("scope",e.scope),"field-scope")}
      ${n(r("field.owner"),i.personName(e.owner_id),"field-owner")}
      ${n(r("field.area"),i.areaName(e.area_id),"field-area")}
      ${n(r("field.provenance"),i.label("provenance",e.provenance),"field-provenance")}
      ${n(r("field.status"),i.label("status",e.status),"field-status")}
      ${n(r("field.language"),e.language,"field-language")}
      ${n(r("field.sensitive"),e.sensitive?r("common.yes"):r("common.no"),"field-sensitive")}
      ${n(r("field.importance"),i.number(e.importance),"field-importance")}
      ${n(r("field.confidence"),i.number(e.confidence),"field-confidence")}
      ${n(r("field.fact"),[e.subject,e.predicate,e.value].filter(Boolean).join(" · "),"field-fact")}
      ${n(r("field.source"),i.label("source",e.source),"field-source")}
      ${n(r("field.created"),i.time(e.created_at),"field-created")}
      ${n(r("field.updated"),i.time(e.updated_at),"field-updated")}
      ${n(r("field.valid"),this.window(e),"field-valid")}
      ${n(r("field.id"),e.id,"field-id")}
    </dl>`}renderEdit(){let e=this.ctx,i=e.t,r=this.draft,n=o=>this.draft={...r,...o};return a`<form class="card" data-testid="edit-form" @submit=${o=>this.save(o)}>
      <h3>${i("detail.edit")}</h3>
      <label class="field" for="edit-content"
        >${i("field.content")}
        <textarea
          id="edit-content"
          data-testid="edit-content"
          required
          maxlength=${Ce}
          .value=${r.content}
          @input=${o=>n({content:o.target.value})}
        ></textarea>
      </label>
      <p class="help">${i("detail.edit_help")}</p>
      <div class="grid">
        ${b("edit-kind",i("field.kind"),r.kind,P(e,"kind",oe),o=>n({kind:o}))}
        ${b("edit-scope",i("field.scope"),r.scope,P(e,"scope",ot),o=>n({scope:o}))}
        ${r.scope==="private"?b("edit-owner",i("field.owner"),r.owner,E(e,i("detail.choose")),o=>n({owner:o})):c}
        ${r.scope==="room"?b("edit-area",i("field.area"),r.area,j(e,i("detail.choose")),o=>n({area:o})):c}
      </div>
      <div class="actions">
        <button class="primary" type="submit" data-testid="edit-save" ?disabled=${this.busy}>${i("common.save")}</button>
        <button type="button" data-testid="edit-cancel" @click=${()=>this.draft=void 0}>
          ${i("common.cancel")}
        </button>
      </div>
    </form>`}renderChain(){let e=this.ctx,i=e.t,{memory:r,older:n,newer:o}=this.data,l=(u,h)=>(h.valid_from??h.created_at).localeCompare(u.valid_from??u.created_at),d=[...[...o].sort(l),r,...[...n].sort(l)];return d.length===1?a`<p class="muted" data-testid="history-single">${i("history.single")}</p>`:a`<ol class="chain" data-testid="history">
      ${d.map(u=>a`<li
            class=${u.id===r.id?"this":""}
            data-testid="history-item"
            data-memory-id=${u.id}
            data-relation=${u.id===r.id?"this":o.includes(u)?"newer":"older"}
          >
            <div class="content">${u.content}</div>
            <div class="window" data-testid="history-window">${e.label("status",u.status)} · ${this.window(u)}</div>
            ${I(e,u.said_by)}
            ${u.id===r.id?c:a`<button class="link" data-testid="history-open" @click=${()=>L(this,u.id)}>
                  ${i("memory.open")}
                </button>`}
          </li>`)}
    </ol>`}render(){let e=this.ctx;if(!e)return c;let i=e.t,r=this.data?.memory;return a`<div class="row">
        <button data-testid="detail-back" @click=${()=>ae(this,"back")}>← ${i("common.back")}</button>
      </div>
      <hm-confirm></hm-confirm>
      ${this.notice?a`<div class="notice" role="status" data-testid="notice">${this.notice}</div>`:c}
      ${this.renderError()}
      ${r&&!this.gone?a`<div class="card" data-testid="detail" data-memory-id=${r.id}>
              <h2>${i("detail.title")}</h2>
              <div class="content" data-testid="detail-content">${r.content}</div>
              ${Ee(e,r)}
              <h3>${i("detail.said_by")}</h3>
              ${I(e,r.said_by)} ${this.renderFields(r)}
              <div class="actions">
                ${r.status==="pending"?a`<button class="primary" data-testid="detail-approve" ?disabled=${this.busy} @click=${()=>this.review(!0)}>
                        ${i("pending.approve")}
                      </button>
                      <button data-testid="detail-reject" ?disabled=${this.busy} @click=${()=>this.review(!1)}>
                        ${i("pending.reject")}
                      </button>`:c}
                <button data-testid="detail-edit" ?disabled=${this.busy||!!this.draft} @click=${()=>this.edit(r)}>
                  ${i("detail.edit")}
                </button>
                <button class="danger" data-testid="detail-forget" ?disabled=${this.busy} @click=${()=>this.forget()}>
                  ${i("detail.forget")}
                </button>
              </div>
            </div>
            ${this.draft?this.renderEdit():c}
            <div class="card">
              <h3>${i("history.title")}</h3>
              ${this.renderChain()}
            </div>`:this.busy?a`<p class="muted">${i("common.loading")}</p>`:c}`}};g("hm-detail",Te);var At=50,Me=class extends v{constructor(){super(...arguments);this.person="";this.notice="";this.total=0;this.offset=0}static{this.properties={person:{state:!0},notice:{state:!0},tombstones:{state:!0},total:{state:!0},offset:{state:!0}}}start(){this.load(0)}async load(e){let i=await this.run(()=>this.ctx.api.tombstones(e,At));i&&(this.tombstones=i.tombstones,this.total=i.total,this.offset=e)}async forgetPerson(){let e=this.ctx,i=e.t,r=e.personName(this.person);if(!await this.renderRoot.querySelector("hm-confirm").ask(i("forget.person_confirm",{person:r}),i("forget.person_submit"),i("common.cancel")))return;let o=await this.run(()=>e.api.forgetPerson(this.person));o&&(this.notice=i("forget.person_done",{n:o.forgotten,person:r}),this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})),await this.load(0))}async lift(e){await this.run(()=>this.ctx.api.liftTombstone(e.id))&&(this.notice=this.ctx.t("tombstones.lifted"),await this.load(this.offset))}whom(e){let i=this.ctx;return e.scope==="private"&&e.owner_id?i.t("scope.private_of",{person:i.personName(e.owner_id)}):e.scope==="room"&&e.area_id?i.t("scope.room_of",{room:i.areaName(e.area_id)}):i.label("scope",e.scope)}render(){let e=this.ctx;if(!e)return c;let i=e.t;return a`<hm-confirm></hm-confirm>
      ${this.notice?a`<div class="notice" role="status" data-testid="notice">${this.notice}</div>`:c}
      ${this.renderError()}
      <div class="card">
        <h2>${i("forget.person_title")}</h2>
        <p class="help">${i("forget.person_help")}</p>
        <div class="grid">
          ${b("forget-person",i("field.person"),this.person,E(e,i("detail.choose")),r=>this.person=r)}
        </div>
        <div class="actions">
          <button
            class="danger"
            data-testid="forget-person-submit"
            ?disabled=${!this.person||this.busy}
            @click=${()=>this.forgetPerson()}
          >
            ${i("forget.person_submit")}
          </button>
        </div>
      </div>
      <div class="card">
        <h2>${i("tombstones.title")}</h2>
        <p class="help">${i("tombstones.help")}</p>
        ${this.tombstones===void 0?c:this.tombstones.length===0?a`<p class="muted" data-testid="tombstones-empty">${i("tombstones.empty")}</p>`:a`${Q(e,"tombstones",this.offset,At,this.total,r=>this.load(r))}
                <ul class="plain" data-testid="tombstone-list">
                  ${this.tombstones.map(r=>a`<li class="card" data-testid="tombstone-item" data-tombstone-id=${r.id}>
                        <div>${this.whom(r)}</div>
                        <div class="said-by">
                          ${i("tombstones.created",{time:e.time(r.created_at)})}
                          ${r.lifted_at?a` · ${i("tombstones.lifted_at",{time:e.time(r.lifted_at)})}`:c}
                        </div>
                        ${r.lifted_at?c:a`<div class="actions">
                              <button data-testid="tombstone-lift" ?disabled=${this.busy} @click=${()=>this.lift(r)}>
                                ${i("tombstones.lift")}
                              </button>
                            </div>`}
                      </li>`)}
                </ul>`}
      </div>`}};g("hm-forget",Me);var Gt=[25,50,100,200],Ne=class extends v{constructor(){super(...arguments);this.filters={status:"active"};this.limit=50;this.request=0}static{this.properties={filters:{state:!0},page:{state:!0},limit:{state:!0}}}start(){this.load(0)}async load(e){let i={...this.filters,language:this.filters.language?.trim()},r=++this.request,n=await this.run(()=>this.ctx.api.list(i,e,this.limit));n&&r===this.request&&(this.page=n)}set(e,i){this.filters={...this.filters,[e]:i},this.load(0)}render(){let e=this.ctx;if(!e)return c;let i=e.t,r=this.filters,n=i("filter.any");return a`<div class="card">
        <h2>${i("list.title")}</h2>
        <div class="grid" role="group" aria-label=${i("list.filters")}>
          ${b("filter-kind",i("field.kind"),r.kind??"",P(e,"kind",oe,n),o=>this.set("kind",o))}
          ${b("filter-scope",i("field.scope"),r.scope??"",P(e,"scope",nt,n),o=>this.set("scope",o))}
          ${b("filter-person",i("filter.person"),r.person??"",E(e,n),o=>this.set("person",o))}
          ${b("filter-area",i("field.area"),r.area??"",j(e,n),o=>this.set("area",o))}
          ${b("filter-provenance",i("field.provenance"),r.provenance??"",P(e,"provenance",at,n),o=>this.set("provenance",o))}
          ${b("filter-status",i("field.status"),r.status??"active",[...P(e,"status",lt),{value:"any",label:n}],o=>this.set("status",o))}
          <label class="field" for="filter-language"
            >${i("field.language")}
            <input
              id="filter-language"
              data-testid="filter-language"
              type="text"
              inputmode="text"
              autocomplete="off"
              spellcheck="false"
              placeholder=${i("filter.language_hint")}
              .value=${r.language??""}
              @change=${o=>this.set("language",o.target.value)}
            />
          </label>
          ${b("filter-said-by",i("field.said_by"),r.said_by??"",E(e,n),o=>this.set("said_by",o))}
          ${b("filter-limit",i("page.size"),String(this.limit),Gt.map(o=>({value:String(o),label:String(o)})),o=>{this.limit=Number(o),this.load(0)})}
        </div>
      </div>
      ${this.renderError()}
      ${this.page?a`${Q(e,"list",this.page.offset,this.page.limit,this.page.total,o=>this.load(o))}
            ${this.page.memories.length===0?a`<p class="muted" data-testid="list-empty">${i("list.empty")}</p>`:a`<ul class="plain" data-testid="memory-list">
                  ${V(this.page.memories,o=>o.id,o=>q(e,this,o))}
                </ul>`}
            ${this.page.total>this.page.limit?Q(e,"list-bottom",this.page.offset,this.page.limit,this.page.total,o=>this.load(o)):c}`:this.busy?a`<p class="muted">${i("common.loading")}</p>`:c}`}};g("hm-list",Ne);var Oe=class extends v{static{this.properties={data:{state:!0}}}start(){this.load()}async load(){this.data=await this.run(()=>this.ctx.api.overview())??this.data}counts(t,e){let i=this.ctx.t,r=Object.entries(e).sort(([n],[o])=>n.localeCompare(o));return a`<div class="card">
      <h3>${i(`overview.by_${t}`)}</h3>
      ${r.length===0?a`<p class="muted">${i("overview.none")}</p>`:a`<div class="counts">
            ${r.map(([n,o])=>a`<div class="count" data-testid="overview-${t}-${n}">
                  <span class="n">${o}</span><span class="label">${this.ctx.label(t,n)}</span>
                </div>`)}
          </div>`}
    </div>`}render(){let t=this.ctx;if(!t)return c;let e=t.t,i=this.data;return a`${this.renderError()}
    ${i?a`<div class="card">
            <div class="counts">
              <div class="count" data-testid="overview-pending">
                <span class="n">${i.counts.pending}</span><span class="label">${e("overview.pending")}</span>
              </div>
              <div class="count" data-testid="overview-tombstones">
                <span class="n">${i.counts.tombstones}</span><span class="label">${e("overview.tombstones")}</span>
              </div>
            </div>
            <div class="actions">
              ${i.counts.pending>0?a`<button class="primary" data-testid="overview-review" @click=${()=>ae(this,"pending")}>
                    ${e("overview.review")}
                  </button>`:c}
              <button data-testid="overview-refresh" ?disabled=${this.busy} @click=${()=>this.load()}>
                ${e("common.refresh")}
              </button>
            </div>
          </div>
          ${this.counts("scope",i.counts.by_scope)} ${this.counts("provenance",i.counts.by_provenance)}
          ${this.counts("status",i.counts.by_status)}
          <div class="card">
            <dl class="fields">
              <dt>${e("overview.last_consolidation")}</dt>
              <dd data-testid="overview-last-consolidation">
                ${i.last_consolidation?t.time(i.last_consolidation):e("overview.never")}
              </dd>
              <dt>${e("overview.store")}</dt>
              <dd data-testid="overview-store">${t.label("store",i.store.kind)} — ${i.store.where}</dd>
              <dt>${e("overview.encoder")}</dt>
              <dd data-testid="overview-encoder">
                ${i.encoder.provider} · ${i.encoder.model} · ${e("overview.dimension",{n:i.encoder.dimension})}
              </dd>
            </dl>
          </div>`:this.busy?a`<p class="muted">${e("common.loading")}</p>`:c}`}};g("hm-overview",Oe);var Le=class extends v{constructor(){super(...arguments);this.notice=""}static{this.properties={items:{state:!0},notice:{state:!0}}}start(){this.load()}async load(){let e=await this.run(()=>this.ctx.api.pending());e&&(this.items=e.pending)}async decide(e,i){let r=this.ctx.api,n=e.memory.id;await this.run(()=>i?r.approve(n):r.reject(n))&&(this.notice=this.ctx.t(i?"pending.approved":"pending.rejected"),this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})),await this.load())}renderItem(e){let i=this.ctx,r=i.t,n=a`${e.replaces.length?a`<div class="replaces" data-testid="pending-replaces">
            <p class="help">${r("pending.replaces")}</p>
            <ul class="plain">
              ${e.replaces.map(o=>a`<li data-memory-id=${o.id}>
                    <del class="content" data-testid="replaced-value">${o.content}</del>
                    ${I(i,o.said_by)}
                  </li>`)}
            </ul>
          </div>`:c}
      <div class="actions">
        <button class="primary" data-testid="pending-approve" ?disabled=${this.busy} @click=${()=>this.decide(e,!0)}>
          ${r("pending.approve")}
        </button>
        <button data-testid="pending-reject" ?disabled=${this.busy} @click=${()=>this.decide(e,!1)}>
          ${r("pending.reject")}
        </button>
      </div>`;return q(i,this,e.memory,n,"pending-item")}render(){let e=this.ctx;if(!e)return c;let i=e.t;return a`<div class="card">
        <h2>${i("pending.title")}</h2>
        <p class="help">${i("pending.help")}</p>
      </div>
      ${this.notice?a`<div class="notice" role="status" data-testid="notice">${this.notice}</div>`:c}
      ${this.renderError()}
      ${this.items===void 0?this.busy?a`<p class="muted">${i("common.loading")}</p>`:c:this.items.length===0?a`<p class="muted" data-testid="pending-empty">${i("pending.empty")}</p>`:a`<ul class="plain" data-testid="pending-list">
              ${V(this.items,r=>r.memory.id,r=>this.renderItem(r))}
            </ul>`}`}};g("hm-pending",Le);var pe={min:1,max:3650},ze=class extends v{constructor(){super(...arguments);this.notice=""}static{this.properties={saved:{state:!0},draft:{state:!0},notice:{state:!0}}}start(){this.load()}async load(){let e=await this.run(()=>this.ctx.api.settings());e&&(this.saved=e,this.draft={...e,learning_opt_out_areas:[...e.learning_opt_out_areas]})}changes(){let e={},i=this.draft,r=this.saved;for(let n of Object.keys(i)){let o=i[n],l=r[n];(Array.isArray(o)&&Array.isArray(l)?[...o].sort().join(`
`)===[...l].sort().join(`
`):o===l)||(e[n]=o)}return e}set(e){this.notice="",this.draft={...this.draft,...e}}toggleArea(e,i){let r=this.draft.learning_opt_out_areas.filter(n=>n!==e);this.set({learning_opt_out_areas:i?[...r,e]:r})}async save(e){e.preventDefault();let i=this.changes();if(Object.keys(i).length===0)return;let r=await this.run(()=>this.ctx.api.updateSettings(i));r&&(this.saved=r,this.draft={...r,learning_opt_out_areas:[...r.learning_opt_out_areas]},this.notice=this.ctx.t("settings.saved"))}check(e,i,r,n){return a`<label class="check" for=${e}>
      <input
        id=${e}
        data-testid=${e}
        type="checkbox"
        .checked=${this.draft[i]}
        @change=${o=>this.set({[i]:o.target.checked})}
      />
      <span><span>${r}</span><br /><span class="help">${n}</span></span>
    </label>`}render(){let e=this.ctx;if(!e)return c;let i=e.t,r=this.draft;if(!r)return a`${this.renderError()}${this.busy?a`<p class="muted">${i("common.loading")}</p>`:c}`;let n=[...e.areas.map(l=>({id:l.area_id,name:l.name})),...r.learning_opt_out_areas.filter(l=>!e.areas.some(d=>d.area_id===l)).map(l=>({id:l,name:l}))],o=Object.keys(this.changes()).length>0;return a`${this.renderError()}
      ${this.notice?a`<div class="notice" role="status" data-testid="settings-saved">${this.notice}</div>`:c}
      <form class="card" data-testid="settings-form" @submit=${l=>this.save(l)}>
        <h2>${i("settings.title")}</h2>
        <p class="help">${i("settings.help")}</p>
        ${this.check("settings-learning","learning",i("settings.learning"),i("settings.learning_help"))}
        <fieldset class="card">
          <legend>${i("settings.opt_out")}</legend>
          <p class="help">${i("settings.opt_out_help")}</p>
          ${n.length===0?a`<p class="muted">${i("settings.no_areas")}</p>`:n.map(l=>a`<label class="check" for="settings-optout-${l.id}">
                  <input
                    id="settings-optout-${l.id}"
                    data-testid="settings-optout-${l.id}"
                    type="checkbox"
                    .checked=${r.learning_opt_out_areas.includes(l.id)}
                    @change=${d=>this.toggleArea(l.id,d.target.checked)}
                  />
                  <span>${l.name}</span>
                </label>`)}
        </fieldset>
        ${this.check("settings-review","review_extracted",i("settings.review"),i("settings.review_help"))}
        ${this.check("settings-cloud","cloud_personal",i("settings.cloud"),i("settings.cloud_help"))}
        <label class="field" for="settings-retention"
          >${i("settings.retention")}
          <input
            id="settings-retention"
            data-testid="settings-retention"
            type="number"
            inputmode="numeric"
            required
            min=${pe.min}
            max=${pe.max}
            .value=${String(r.transcript_retention_days)}
            @change=${l=>this.set({transcript_retention_days:Number(l.target.value)})}
          />
        </label>
        <p class="help">${i("settings.retention_help",{min:pe.min,max:pe.max})}</p>
        <div class="actions">
          <button class="primary" type="submit" data-testid="settings-save" ?disabled=${this.busy||!o}>
            ${i("common.save")}
          </button>
          <button type="button" data-testid="settings-reset" ?disabled=${this.busy||!o} @click=${()=>this.load()}>
            ${i("settings.reset")}
          </button>
        </div>
      </form>`}};g("hm-settings",ze);function Wt(s){return`household-memory-${typeof s=="string"&&/^\d{4}-\d{2}-\d{2}/.test(s)?s.slice(0,10):"export"}.json`}var je=class extends v{static{this.properties={exported:{state:!0},report:{state:!0}}}async exportAll(){let t=await this.run(()=>this.ctx.api.exportAll());if(!t)return;let e=Wt(t.exported_at),i=new Blob([JSON.stringify(t,null,2)+`
`],{type:"application/json"}),r=URL.createObjectURL(i),n=document.createElement("a");n.href=r,n.download=e,n.hidden=!0,this.renderRoot.appendChild(n),n.click(),n.remove(),URL.revokeObjectURL(r),this.exported={count:Array.isArray(t.memories)?t.memories.length:0,file:e}}async importFile(t){let e=t.target,i=e.files?.[0];if(!i)return;this.report=void 0;let r;try{r=JSON.parse(await i.text())}catch{this.error=this.ctx.t("transfer.invalid_json",{file:i.name}),e.value="";return}let n=await this.run(()=>this.ctx.api.importAll(r));e.value="",n&&(this.report=n,this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})))}render(){let t=this.ctx;if(!t)return c;let e=t.t,i=this.report;return a`${this.renderError()}
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
            </p>`:c}
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
        ${i?a`<div class="notice" role="status" data-testid="import-report">
              <p data-testid="import-created">${e("transfer.created",{n:i.created})}</p>
              <p data-testid="import-duplicates">${e("transfer.duplicates",{n:i.duplicates})}</p>
              <p data-testid="import-rejected">${e("transfer.rejected",{n:i.rejected.length})}</p>
              ${i.rejected.length?a`<ul>
                    ${i.rejected.map(r=>a`<li data-testid="import-rejected-item">${e("transfer.rejected_item",{index:r.index+1,reason:r.reason})}</li>`)}
                  </ul>`:c}
            </div>`:c}
      </div>`}};g("hm-transfer",je);var St=["overview","list","search","pending","forget","consolidate","transfer","settings"],Jt="M3,6H21V8H3V6M3,11H21V13H3V11M3,16H21V18H3V16Z",Ie=class extends _{constructor(){super();this.narrow=!1;this.tab="overview";this.memoryId="";this.areas=[];this.areasLoaded=!1;this.addEventListener("memory-open",e=>{this.memoryId=e.detail.id}),this.addEventListener("memory-navigate",e=>{let i=e.detail.view;this.memoryId="",St.includes(i)&&(this.tab=i)})}static{this.styles=[w,$`
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
    `]}static{this.properties={hass:{attribute:!1},narrow:{type:Boolean,reflect:!0},tab:{state:!0},memoryId:{state:!0},areas:{state:!0},ctx:{state:!0}}}willUpdate(e){if(!this.hass)return;this.areasLoaded||(this.areasLoaded=!0,this.loadAreas());let i=e.get("hass");(!this.ctx||e.has("areas")||i&&(i.language!==this.hass.language||this.personsChanged(i,this.hass)))&&(this.ctx=gt(this.hass,this.areas))}personsChanged(e,i){let r=n=>Object.keys(n.states).filter(o=>o.startsWith("person.")).map(o=>`${o}=${String(n.states[o].attributes.friendly_name??"")}`).join(`
`);return e.states!==i.states&&r(e)!==r(i)}async loadAreas(){try{let e=await this.hass.callWS({type:"config/area_registry/list"});this.areas=[...e].sort((i,r)=>i.name.localeCompare(r.name))}catch{this.areas=[]}}updated(e){e.has("memoryId")&&e.get("memoryId")!==void 0&&(this.renderRoot.querySelector("main")?.focus({preventScroll:!0}),this.scrollIntoView?.({block:"start"}))}toggleMenu(){this.dispatchEvent(new CustomEvent("hass-toggle-menu",{bubbles:!0,composed:!0}))}select(e){this.memoryId="",this.tab=e}renderView(e){if(this.memoryId)return a`<hm-detail .ctx=${e} .memoryId=${this.memoryId}></hm-detail>`;switch(this.tab){case"overview":return a`<hm-overview .ctx=${e}></hm-overview>`;case"list":return a`<hm-list .ctx=${e}></hm-list>`;case"search":return a`<hm-search .ctx=${e}></hm-search>`;case"pending":return a`<hm-pending .ctx=${e}></hm-pending>`;case"forget":return a`<hm-forget .ctx=${e}></hm-forget>`;case"consolidate":return a`<hm-consolidate .ctx=${e}></hm-consolidate>`;case"transfer":return a`<hm-transfer .ctx=${e}></hm-transfer>`;case"settings":return a`<hm-settings .ctx=${e}></hm-settings>`}}render(){let e=this.ctx;if(!e)return c;let i=e.t;return a`<header>
        ${this.narrow?a`<button data-testid="menu" aria-label=${i("panel.menu")} title=${i("panel.menu")} @click=${this.toggleMenu}>
              <svg viewBox="0 0 24 24" aria-hidden="true"><path d=${Jt}></path></svg>
            </button>`:c}
        <h1 data-testid="panel-title">${i("panel.title")}</h1>
      </header>
      <nav aria-label=${i("panel.sections")}>
        ${St.map(r=>a`<button
              data-testid="tab-${r}"
              aria-current=${this.tab===r&&!this.memoryId?"page":"false"}
              @click=${()=>this.select(r)}
            >
              ${i(`tab.${r}`)}
            </button>`)}
      </nav>
      <main tabindex="-1" data-testid="view-${this.memoryId?"memory":this.tab}">${this.renderView(e)}</main>`}};g("household-memory-panel",Ie);export{Ie as HouseholdMemoryPanel,St as TABS};
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
