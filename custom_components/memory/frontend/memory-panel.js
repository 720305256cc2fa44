var Y=globalThis,ee=Y.ShadowRoot&&(Y.ShadyCSS===void 0||Y.ShadyCSS.nativeShadow)&&"adoptedStyleSheets"in Document.prototype&&"replace"in CSSStyleSheet.prototype,fe=Symbol(),Ze=new WeakMap,B=class{constructor(i,e,t){if(this._$cssResult$=!0,t!==fe)throw Error("CSSResult is not constructable. Use `unsafeCSS` or `css` instead.");this.cssText=i,this.t=e}get styleSheet(){let i=this.o,e=this.t;if(ee&&i===void 0){let t=e!==void 0&&e.length===1;t&&(i=Ze.get(e)),i===void 0&&((this.o=i=new CSSStyleSheet).replaceSync(this.cssText),t&&Ze.set(e,i))}return i}toString(){return this.cssText}},Ke=s=>new B(typeof s=="string"?s:s+"",void 0,fe),y=(s,...i)=>{let e=s.length===1?s[0]:i.reduce((t,o,n)=>t+(r=>{if(r._$cssResult$===!0)return r.cssText;if(typeof r=="number")return r;throw Error("Value passed to 'css' function must be a 'css' function result: "+r+". Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security.")})(o)+s[n+1],s[0]);return new B(e,s,fe)},Xe=(s,i)=>{if(ee)s.adoptedStyleSheets=i.map(e=>e instanceof CSSStyleSheet?e:e.styleSheet);else for(let e of i){let t=document.createElement("style"),o=Y.litNonce;o!==void 0&&t.setAttribute("nonce",o),t.textContent=e.cssText,s.appendChild(t)}},be=ee?s=>s:s=>s instanceof CSSStyleSheet?(i=>{let e="";for(let t of i.cssRules)e+=t.cssText;return Ke(e)})(s):s;var{is:It,defineProperty:jt,getOwnPropertyDescriptor:Ht,getOwnPropertyNames:Ut,getOwnPropertySymbols:Bt,getPrototypeOf:Ft}=Object,te=globalThis,Ye=te.trustedTypes,Wt=Ye?Ye.emptyScript:"",Gt=te.reactiveElementPolyfillSupport,F=(s,i)=>s,_e={toAttribute(s,i){switch(i){case Boolean:s=s?Wt:null;break;case Object:case Array:s=s==null?s:JSON.stringify(s)}return s},fromAttribute(s,i){let e=s;switch(i){case Boolean:e=s!==null;break;case Number:e=s===null?null:Number(s);break;case Object:case Array:try{e=JSON.parse(s)}catch{e=null}}return e}},tt=(s,i)=>!It(s,i),et={attribute:!0,type:String,converter:_e,reflect:!1,useDefault:!1,hasChanged:tt};Symbol.metadata??=Symbol("metadata"),te.litPropertyMetadata??=new WeakMap;var A=class extends HTMLElement{static addInitializer(i){this._$Ei(),(this.l??=[]).push(i)}static get observedAttributes(){return this.finalize(),this._$Eh&&[...this._$Eh.keys()]}static createProperty(i,e=et){if(e.state&&(e.attribute=!1),this._$Ei(),this.prototype.hasOwnProperty(i)&&((e=Object.create(e)).wrapped=!0),this.elementProperties.set(i,e),!e.noAccessor){let t=Symbol(),o=this.getPropertyDescriptor(i,t,e);o!==void 0&&jt(this.prototype,i,o)}}static getPropertyDescriptor(i,e,t){let{get:o,set:n}=Ht(this.prototype,i)??{get(){return this[e]},set(r){this[e]=r}};return{get:o,set(r){let c=o?.call(this);n?.call(this,r),this.requestUpdate(i,c,t)},configurable:!0,enumerable:!0}}static getPropertyOptions(i){return this.elementProperties.get(i)??et}static _$Ei(){if(this.hasOwnProperty(F("elementProperties")))return;let i=Ft(this);i.finalize(),i.l!==void 0&&(this.l=[...i.l]),this.elementProperties=new Map(i.elementProperties)}static finalize(){if(this.hasOwnProperty(F("finalized")))return;if(this.finalized=!0,this._$Ei(),this.hasOwnProperty(F("properties"))){let e=this.properties,t=[...Ut(e),...Bt(e)];for(let o of t)this.createProperty(o,e[o])}let i=this[Symbol.metadata];if(i!==null){let e=litPropertyMetadata.get(i);if(e!==void 0)for(let[t,o]of e)this.elementProperties.set(t,o)}this._$Eh=new Map;for(let[e,t]of this.elementProperties){let o=this._$Eu(e,t);o!==void 0&&this._$Eh.set(o,e)}this.elementStyles=this.finalizeStyles(this.styles)}static finalizeStyles(i){let e=[];if(Array.isArray(i)){let t=new Set(i.flat(1/0).reverse());for(let o of t)e.unshift(be(o))}else i!==void 0&&e.push(be(i));return e}static _$Eu(i,e){let t=e.attribute;return t===!1?void 0:typeof t=="string"?t:typeof i=="string"?i.toLowerCase():void 0}constructor(){super(),this._$Ep=void 0,this.isUpdatePending=!1,this.hasUpdated=!1,this._$Em=null,this._$Ev()}_$Ev(){this._$ES=new Promise(i=>this.enableUpdating=i),this._$AL=new Map,this._$E_(),this.requestUpdate(),this.constructor.l?.forEach(i=>i(this))}addController(i){(this._$EO??=new Set).add(i),this.renderRoot!==void 0&&this.isConnected&&i.hostConnected?.()}removeController(i){this._$EO?.delete(i)}_$E_(){let i=new Map,e=this.constructor.elementProperties;for(let t of e.keys())this.hasOwnProperty(t)&&(i.set(t,this[t]),delete this[t]);i.size>0&&(this._$Ep=i)}createRenderRoot(){let i=this.shadowRoot??this.attachShadow(this.constructor.shadowRootOptions);return Xe(i,this.constructor.elementStyles),i}connectedCallback(){this.renderRoot??=this.createRenderRoot(),this.enableUpdating(!0),this._$EO?.forEach(i=>i.hostConnected?.())}enableUpdating(i){}disconnectedCallback(){this._$EO?.forEach(i=>i.hostDisconnected?.())}attributeChangedCallback(i,e,t){this._$AK(i,t)}_$ET(i,e){let t=this.constructor.elementProperties.get(i),o=this.constructor._$Eu(i,t);if(o!==void 0&&t.reflect===!0){let n=(t.converter?.toAttribute!==void 0?t.converter:_e).toAttribute(e,t.type);this._$Em=i,n==null?this.removeAttribute(o):this.setAttribute(o,n),this._$Em=null}}_$AK(i,e){let t=this.constructor,o=t._$Eh.get(i);if(o!==void 0&&this._$Em!==o){let n=t.getPropertyOptions(o),r=typeof n.converter=="function"?{fromAttribute:n.converter}:n.converter?.fromAttribute!==void 0?n.converter:_e;this._$Em=o;let c=r.fromAttribute(e,n.type);this[o]=c??this._$Ej?.get(o)??c,this._$Em=null}}requestUpdate(i,e,t,o=!1,n){if(i!==void 0){let r=this.constructor;if(o===!1&&(n=this[i]),t??=r.getPropertyOptions(i),!((t.hasChanged??tt)(n,e)||t.useDefault&&t.reflect&&n===this._$Ej?.get(i)&&!this.hasAttribute(r._$Eu(i,t))))return;this.C(i,e,t)}this.isUpdatePending===!1&&(this._$ES=this._$EP())}C(i,e,{useDefault:t,reflect:o,wrapped:n},r){t&&!(this._$Ej??=new Map).has(i)&&(this._$Ej.set(i,r??e??this[i]),n!==!0||r!==void 0)||(this._$AL.has(i)||(this.hasUpdated||t||(e=void 0),this._$AL.set(i,e)),o===!0&&this._$Em!==i&&(this._$Eq??=new Set).add(i))}async _$EP(){this.isUpdatePending=!0;try{await this._$ES}catch(e){Promise.reject(e)}let i=this.scheduleUpdate();return i!=null&&await i,!this.isUpdatePending}scheduleUpdate(){return this.performUpdate()}performUpdate(){if(!this.isUpdatePending)return;if(!this.hasUpdated){if(this.renderRoot??=this.createRenderRoot(),this._$Ep){for(let[o,n]of this._$Ep)this[o]=n;this._$Ep=void 0}let t=this.constructor.elementProperties;if(t.size>0)for(let[o,n]of t){let{wrapped:r}=n,c=this[o];r!==!0||this._$AL.has(o)||c===void 0||this.C(o,void 0,n,c)}}let i=!1,e=this._$AL;try{i=this.shouldUpdate(e),i?(this.willUpdate(e),this._$EO?.forEach(t=>t.hostUpdate?.()),this.update(e)):this._$EM()}catch(t){throw i=!1,this._$EM(),t}i&&this._$AE(e)}willUpdate(i){}_$AE(i){this._$EO?.forEach(e=>e.hostUpdated?.()),this.hasUpdated||(this.hasUpdated=!0,this.firstUpdated(i)),this.updated(i)}_$EM(){this._$AL=new Map,this.isUpdatePending=!1}get updateComplete(){return this.getUpdateComplete()}getUpdateComplete(){return this._$ES}shouldUpdate(i){return!0}update(i){this._$Eq&&=this._$Eq.forEach(e=>this._$ET(e,this[e])),this._$EM()}updated(i){}firstUpdated(i){}};A.elementStyles=[],A.shadowRootOptions={mode:"open"},A[F("elementProperties")]=new Map,A[F("finalized")]=new Map,Gt?.({ReactiveElement:A}),(te.reactiveElementVersions??=[]).push("2.1.2");var xe=globalThis,it=s=>s,ie=xe.trustedTypes,ot=ie?ie.createPolicy("lit-html",{createHTML:s=>s}):void 0,$e="$lit$",k=`lit$${Math.random().toFixed(9).slice(2)}$`,we="?"+k,Qt=`<${we}>`,M=document,G=()=>M.createComment(""),Q=s=>s===null||typeof s!="object"&&typeof s!="function",Se=Array.isArray,lt=s=>Se(s)||typeof s?.[Symbol.iterator]=="function",ye=`[ 	
\f\r]`,W=/<(?:(!--|\/[^a-zA-Z])|(\/?[a-zA-Z][^>\s]*)|(\/?$))/g,nt=/-->/g,st=/>/g,z=RegExp(`>|${ye}(?:([^\\s"'>=/]+)(${ye}*=${ye}*(?:[^ 	
\f\r"'\`<>=]|("|')|))|$)`,"g"),rt=/'/g,at=/"/g,dt=/^(?:script|style|textarea|title)$/i,Ae=s=>(i,...e)=>({_$litType$:s,strings:i,values:e}),a=Ae(1),_i=Ae(2),yi=Ae(3),w=Symbol.for("lit-noChange"),d=Symbol.for("lit-nothing"),ct=new WeakMap,T=M.createTreeWalker(M,129);function pt(s,i){if(!Se(s)||!s.hasOwnProperty("raw"))throw Error("invalid template strings array");return ot!==void 0?ot.createHTML(i):i}var ut=(s,i)=>{let e=s.length-1,t=[],o,n=i===2?"<svg>":i===3?"<math>":"",r=W;for(let c=0;c<e;c++){let l=s[c],p,h,u=-1,v=0;for(;v<l.length&&(r.lastIndex=v,h=r.exec(l),h!==null);)v=r.lastIndex,r===W?h[1]==="!--"?r=nt:h[1]!==void 0?r=st:h[2]!==void 0?(dt.test(h[2])&&(o=RegExp("</"+h[2],"g")),r=z):h[3]!==void 0&&(r=z):r===z?h[0]===">"?(r=o??W,u=-1):h[1]===void 0?u=-2:(u=r.lastIndex-h[2].length,p=h[1],r=h[3]===void 0?z:h[3]==='"'?at:rt):r===at||r===rt?r=z:r===nt||r===st?r=W:(r=z,o=void 0);let m=r===z&&s[c+1].startsWith("/>")?" ":"";n+=r===W?l+Qt:u>=0?(t.push(p),l.slice(0,u)+$e+l.slice(u)+k+m):l+k+(u===-2?c:m)}return[pt(s,n+(s[e]||"<?>")+(i===2?"</svg>":i===3?"</math>":"")),t]},J=class s{constructor({strings:i,_$litType$:e},t){let o;this.parts=[];let n=0,r=0,c=i.length-1,l=this.parts,[p,h]=ut(i,e);if(this.el=s.createElement(p,t),T.currentNode=this.el.content,e===2||e===3){let u=this.el.content.firstChild;u.replaceWith(...u.childNodes)}for(;(o=T.nextNode())!==null&&l.length<c;){if(o.nodeType===1){if(o.hasAttributes())for(let u of o.getAttributeNames())if(u.endsWith($e)){let v=h[r++],m=o.getAttribute(u).split(k),_=/([.?@])?(.*)/.exec(v);l.push({type:1,index:n,name:_[2],strings:m,ctor:_[1]==="."?ne:_[1]==="?"?se:_[1]==="@"?re:N}),o.removeAttribute(u)}else u.startsWith(k)&&(l.push({type:6,index:n}),o.removeAttribute(u));if(dt.test(o.tagName)){let u=o.textContent.split(k),v=u.length-1;if(v>0){o.textContent=ie?ie.emptyScript:"";for(let m=0;m<v;m++)o.append(u[m],G()),T.nextNode(),l.push({type:2,index:++n});o.append(u[v],G())}}}else if(o.nodeType===8)if(o.data===we)l.push({type:2,index:n});else{let u=-1;for(;(u=o.data.indexOf(k,u+1))!==-1;)l.push({type:7,index:n}),u+=k.length-1}n++}}static createElement(i,e){let t=M.createElement("template");return t.innerHTML=i,t}};function L(s,i,e=s,t){if(i===w)return i;let o=t!==void 0?e._$Co?.[t]:e._$Cl,n=Q(i)?void 0:i._$litDirective$;return o?.constructor!==n&&(o?._$AO?.(!1),n===void 0?o=void 0:(o=new n(s),o._$AT(s,e,t)),t!==void 0?(e._$Co??=[])[t]=o:e._$Cl=o),o!==void 0&&(i=L(s,o._$AS(s,i.values),o,t)),i}var oe=class{constructor(i,e){this._$AV=[],this._$AN=void 0,this._$AD=i,this._$AM=e}get parentNode(){return this._$AM.parentNode}get _$AU(){return this._$AM._$AU}u(i){let{el:{content:e},parts:t}=this._$AD,o=(i?.creationScope??M).importNode(e,!0);T.currentNode=o;let n=T.nextNode(),r=0,c=0,l=t[0];for(;l!==void 0;){if(r===l.index){let p;l.type===2?p=new D(n,n.nextSibling,this,i):l.type===1?p=new l.ctor(n,l.name,l.strings,this,i):l.type===6&&(p=new ae(n,this,i)),this._$AV.push(p),l=t[++c]}r!==l?.index&&(n=T.nextNode(),r++)}return T.currentNode=M,o}p(i){let e=0;for(let t of this._$AV)t!==void 0&&(t.strings!==void 0?(t._$AI(i,t,e),e+=t.strings.length-2):t._$AI(i[e])),e++}},D=class s{get _$AU(){return this._$AM?._$AU??this._$Cv}constructor(i,e,t,o){this.type=2,this._$AH=d,this._$AN=void 0,this._$AA=i,this._$AB=e,this._$AM=t,this.options=o,this._$Cv=o?.isConnected??!0}get parentNode(){let i=this._$AA.parentNode,e=this._$AM;return e!==void 0&&i?.nodeType===11&&(i=e.parentNode),i}get startNode(){return this._$AA}get endNode(){return this._$AB}_$AI(i,e=this){i=L(this,i,e),Q(i)?i===d||i==null||i===""?(this._$AH!==d&&this._$AR(),this._$AH=d):i!==this._$AH&&i!==w&&this._(i):i._$litType$!==void 0?this.$(i):i.nodeType!==void 0?this.T(i):lt(i)?this.k(i):this._(i)}O(i){return this._$AA.parentNode.insertBefore(i,this._$AB)}T(i){this._$AH!==i&&(this._$AR(),this._$AH=this.O(i))}_(i){this._$AH!==d&&Q(this._$AH)?this._$AA.nextSibling.data=i:this.T(M.createTextNode(i)),this._$AH=i}$(i){let{values:e,_$litType$:t}=i,o=typeof t=="number"?this._$AC(i):(t.el===void 0&&(t.el=J.createElement(pt(t.h,t.h[0]),this.options)),t);if(this._$AH?._$AD===o)this._$AH.p(e);else{let n=new oe(o,this),r=n.u(this.options);n.p(e),this.T(r),this._$AH=n}}_$AC(i){let e=ct.get(i.strings);return e===void 0&&ct.set(i.strings,e=new J(i)),e}k(i){Se(this._$AH)||(this._$AH=[],this._$AR());let e=this._$AH,t,o=0;for(let n of i)o===e.length?e.push(t=new s(this.O(G()),this.O(G()),this,this.options)):t=e[o],t._$AI(n),o++;o<e.length&&(this._$AR(t&&t._$AB.nextSibling,o),e.length=o)}_$AR(i=this._$AA.nextSibling,e){for(this._$AP?.(!1,!0,e);i!==this._$AB;){let t=it(i).nextSibling;it(i).remove(),i=t}}setConnected(i){this._$AM===void 0&&(this._$Cv=i,this._$AP?.(i))}},N=class{get tagName(){return this.element.tagName}get _$AU(){return this._$AM._$AU}constructor(i,e,t,o,n){this.type=1,this._$AH=d,this._$AN=void 0,this.element=i,this.name=e,this._$AM=o,this.options=n,t.length>2||t[0]!==""||t[1]!==""?(this._$AH=Array(t.length-1).fill(new String),this.strings=t):this._$AH=d}_$AI(i,e=this,t,o){let n=this.strings,r=!1;if(n===void 0)i=L(this,i,e,0),r=!Q(i)||i!==this._$AH&&i!==w,r&&(this._$AH=i);else{let c=i,l,p;for(i=n[0],l=0;l<n.length-1;l++)p=L(this,c[t+l],e,l),p===w&&(p=this._$AH[l]),r||=!Q(p)||p!==this._$AH[l],p===d?i=d:i!==d&&(i+=(p??"")+n[l+1]),this._$AH[l]=p}r&&!o&&this.j(i)}j(i){i===d?this.element.removeAttribute(this.name):this.element.setAttribute(this.name,i??"")}},ne=class extends N{constructor(){super(...arguments),this.type=3}j(i){this.element[this.name]=i===d?void 0:i}},se=class extends N{constructor(){super(...arguments),this.type=4}j(i){this.element.toggleAttribute(this.name,!!i&&i!==d)}},re=class extends N{constructor(i,e,t,o,n){super(i,e,t,o,n),this.type=5}_$AI(i,e=this){if((i=L(this,i,e,0)??d)===w)return;let t=this._$AH,o=i===d&&t!==d||i.capture!==t.capture||i.once!==t.once||i.passive!==t.passive,n=i!==d&&(t===d||o);o&&this.element.removeEventListener(this.name,this,t),n&&this.element.addEventListener(this.name,this,i),this._$AH=i}handleEvent(i){typeof this._$AH=="function"?this._$AH.call(this.options?.host??this.element,i):this._$AH.handleEvent(i)}},ae=class{constructor(i,e,t){this.element=i,this.type=6,this._$AN=void 0,this._$AM=e,this.options=t}get _$AU(){return this._$AM._$AU}_$AI(i){L(this,i)}},mt={M:$e,P:k,A:we,C:1,L:ut,R:oe,D:lt,V:L,I:D,H:N,N:se,U:re,B:ne,F:ae},Jt=xe.litHtmlPolyfillSupport;Jt?.(J,D),(xe.litHtmlVersions??=[]).push("3.3.3");var ht=(s,i,e)=>{let t=e?.renderBefore??i,o=t._$litPart$;if(o===void 0){let n=e?.renderBefore??null;t._$litPart$=o=new D(i.insertBefore(G(),n),n,void 0,e??{})}return o._$AI(s),o};var ke=globalThis,x=class extends A{constructor(){super(...arguments),this.renderOptions={host:this},this._$Do=void 0}createRenderRoot(){let i=super.createRenderRoot();return this.renderOptions.renderBefore??=i.firstChild,i}update(i){let e=this.render();this.hasUpdated||(this.renderOptions.isConnected=this.isConnected),super.update(i),this._$Do=ht(e,this.renderRoot,this.renderOptions)}connectedCallback(){super.connectedCallback(),this._$Do?.setConnected(!0)}disconnectedCallback(){super.disconnectedCallback(),this._$Do?.setConnected(!1)}render(){return w}};x._$litElement$=!0,x.finalized=!0,ke.litElementHydrateSupport?.({LitElement:x});var Zt=ke.litElementPolyfillSupport;Zt?.({LitElement:x});(ke.litElementVersions??=[]).push("4.2.2");function g(s,i){customElements.get(s)||customElements.define(s,i)}var $=y`
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
`;var Ee=class extends x{constructor(){super(...arguments);this.text="";this.confirmLabel="";this.cancelLabel=""}static{this.styles=[$,y`
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
    `]}static{this.properties={text:{state:!0},confirmLabel:{state:!0},cancelLabel:{state:!0}}}async ask(e,t,o){return this.resolve?.(!1),this.text=e,this.confirmLabel=t,this.cancelLabel=o,await this.updateComplete,this.renderRoot.querySelector("dialog").showModal(),this.renderRoot.querySelector("[data-testid=confirm-cancel]").focus(),new Promise(r=>this.resolve=r)}close(e){this.renderRoot.querySelector("dialog")?.close(),this.resolve?.(e),this.resolve=void 0}render(){return a`<dialog data-testid="confirm-dialog" aria-labelledby="confirm-text" @cancel=${()=>this.close(!1)}>
      <p id="confirm-text" data-testid="confirm-text">${this.text}</p>
      <div class="actions">
        <button data-testid="confirm-cancel" @click=${()=>this.close(!1)}>${this.cancelLabel}</button>
        <button class="danger" data-testid="confirm-ok" @click=${()=>this.close(!0)}>${this.confirmLabel}</button>
      </div>
    </dialog>`}};g("hm-confirm",Ee);var le=["fact","preference","episode","procedure","note"],vt=["private","room","shared","system"],gt=["private","room","shared"],ft=["confirmed","observed","extracted","inferred"],bt=["active","pending","superseded","archived"];function Kt(s){return Object.fromEntries(Object.entries(s).filter(([,i])=>i!==void 0&&i!==""))}var ce=class{constructor(i){this.hass=i}call(i,e={}){return this.hass.callWS({type:i,...Kt(e)})}overview(){return this.call("memory/overview")}list(i,e,t){return this.call("memory/list",{...i,offset:e,limit:t})}search(i,e,t,o,n){return this.call("memory/search",{query:i,person:e,area:t,language:o,limit:n})}get(i){return this.call("memory/get",{memory_id:i})}update(i,e){return this.call("memory/update",{memory_id:i,...e})}pending(){return this.call("memory/pending")}approve(i){return this.call("memory/approve",{memory_id:i})}reject(i){return this.call("memory/reject",{memory_id:i})}forget(i){return this.call("memory/forget",{memory_id:i})}forgetPerson(i){return this.call("memory/forget_person",{person:i})}tombstones(i,e){return this.call("memory/tombstones",{offset:i,limit:e})}liftTombstone(i){return this.call("memory/lift_tombstone",{tombstone_id:i})}consolidate(i){return this.call("memory/consolidate",{dry_run:i})}exportAll(){return this.call("memory/export")}importAll(i,e){let t=this.hass.connection;return t?new Promise((o,n)=>{let r,c,l=()=>c?.().catch(()=>{});t.subscribeMessage(p=>{"result"in p?(r=p.result,o(r),l()):e?.(p.done,p.total)},{type:"memory/import",data:i,progress:!0}).then(p=>{c=p,r&&l()},n)}):this.call("memory/import",{data:i})}settings(){return this.call("memory/settings")}updateSettings(i){return this.call("memory/settings/update",i)}voiceStatus(){return this.call("memory/voice/status")}assessVoice(i,e){return this.call("memory/voice/assess",{person:i,...e})}enrollVoice(i,e){return this.call("memory/voice/enroll",{person:i,...e})}forgetVoice(i){return this.call("memory/voice/forget",{person:i})}voiceRecognitions(){return this.call("memory/voice/recognitions")}areas(){return this.call("config/area_registry/list")}};function _t(s){return Object.values(s.states).filter(i=>i.entity_id.startsWith("person.")).map(i=>({id:i.entity_id,name:String(i.attributes.friendly_name??i.entity_id)})).sort((i,e)=>i.name.localeCompare(e.name))}var Pe="memory";async function Re(s,i=Pe){if(typeof s.loadBackendTranslation!="function")return s.localize;try{let e=await s.loadBackendTranslation("exceptions",i);return typeof e=="function"?e:s.localize}catch{return s.localize}}function Ce(s,i,e={},t=Pe){if(!s)return"";try{let o=s(`component.${t}.exceptions.${i}.message`,e);return typeof o=="string"&&!o.startsWith("Translation error")?o:""}catch{return""}}async function yt(s,i){if(s&&i&&typeof i=="object"&&"translation_key"in i){let e=i;if(e.translation_key){let t=e.translation_domain||Pe,o=Ce(await Re(s,t),e.translation_key,e.translation_placeholders??{},t);if(o)return o}}return Xt(i)}function Xt(s){return s&&typeof s=="object"&&"message"in s?String(s.message):String(s)}var xt={"panel.title":"Gedächtnis","panel.menu":"Seitenleiste öffnen","panel.sections":"Bereiche des Gedächtnis-Panels","tab.overview":"Übersicht","tab.list":"Erinnerungen","tab.search":"Suche","tab.pending":"Prüfen","tab.forget":"Vergessen","tab.consolidate":"Zusammenführen","tab.transfer":"Export & Import","tab.settings":"Lernen","tab.voice":"Stimmen","common.back":"Zurück","common.cancel":"Abbrechen","common.loading":"Wird geladen …","common.refresh":"Aktualisieren","common.save":"Speichern","common.yes":"Ja","common.no":"Nein","kind.fact":"Tatsache","kind.preference":"Vorliebe","kind.episode":"Ereignis","kind.procedure":"Ablauf","kind.note":"Notiz","scope.private":"Privat","scope.room":"Raum","scope.shared":"Haushalt","scope.system":"System","scope.private_of":"Privat für {person}","scope.room_of":"Raum: {room}","provenance.confirmed":"Bestätigt","provenance.observed":"Beobachtet","provenance.extracted":"Aus einem Gespräch gelernt","provenance.inferred":"Vermutet","status.active":"Aktuell","status.pending":"Wartet auf Prüfung","status.superseded":"Ersetzt","status.archived":"Zusammengeführt","source.voice":"Sprache","source.service":"Aktion","source.extraction":"Lernen","source.automation":"Automatisierung","source.admin":"Administrator","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Bedeutung","factor.lexical":"Gleiche Wörter","factor.provenance":"Herkunft","factor.importance":"Wichtigkeit","factor.recency":"Aktualität","factor.translation":"Gleiche Wörter in anderer Sprache","factor.named":"Nennt eine Person","factor.about_speaker":"Über den Sprecher","factor.context":"Gesprächskontext","factor.conversation":"Gleiches Gespräch","factor.newer":"Neuerer Wert","said_by.person_room":"Gesagt von {person} in {room}, {time}","said_by.person":"Gesagt von {person}, {time}","said_by.unknown_room":"Gesagt von einem unbekannten Sprecher in {room}, {time}","said_by.unknown":"Gesagt von einem unbekannten Sprecher, {time}","memory.open":"Öffnen","memory.sensitive":"Sensibel","field.content":"Text","field.kind":"Art","field.scope":"Wer es hören darf","field.owner":"Besitzer","field.person":"Person","field.area":"Bereich","field.provenance":"Herkunft","field.status":"Status","field.language":"Sprache","field.said_by":"Gesagt von","field.sensitive":"Sensibel","field.importance":"Wichtigkeit","field.confidence":"Sicherheit","field.fact":"Tatsache","field.source":"Quelle","field.created":"Gespeichert","field.updated":"Zuletzt geändert","field.valid":"Gültig","field.id":"ID","filter.any":"Alle","filter.person":"Person (Besitzer oder Sprecher)","filter.language_hint":"z. B. de","page.previous":"Zurück","page.next":"Weiter","page.range":"{first}–{last} von {total}","page.size":"Pro Seite","overview.pending":"Warten auf Prüfung","overview.tombstones":"Grabsteine","overview.review":"Jetzt prüfen","overview.by_scope":"Erinnerungen nach Sichtbarkeit","overview.by_provenance":"Erinnerungen nach Herkunft","overview.by_status":"Erinnerungen nach Status","overview.none":"Noch keine.","overview.last_consolidation":"Letzte Zusammenführung","overview.never":"Nie","overview.store":"Speicher","overview.encoder":"Encoder","overview.dimension":"{n} Dimensionen","list.title":"Erinnerungen","list.filters":"Filter","list.empty":"Keine Erinnerung passt zu diesen Filtern.","search.title":"Als Sprecher suchen","search.help":"Zeigt, was der Assistent für diese Person in diesem Raum abrufen würde, und warum jede Erinnerung auftaucht.","search.query":"Frage oder Wörter","search.as_person":"Sprecher","search.unknown_speaker":"Unbekannter Sprecher","search.in_area":"Raum","search.no_area":"Kein Raum","search.limit":"Ergebnisse","search.submit":"Suchen","search.empty":"Nichts, was dieser Sprecher hören würde, passt.","search.score":"Punktzahl {score} · Ähnlichkeit {similarity}","search.why":"Warum sie auftaucht","search.outdated":"Ein neuerer Wert hat diesen ersetzt.","search.open_newer":"Neueren Wert öffnen","search.withheld_title":"Diesem Sprecher vorenthalten","search.withheld_help":"Gefunden, aber vertraulich: Der Assistent würde diese Erinnerungen diesem Sprecher nicht sagen (ein unbekannter Sprecher hört keinen Code und keine Zahlungs- oder Gesundheitsangabe).","search.withheld_mark":"Vorenthalten: wird diesem Sprecher nicht gesagt","detail.title":"Erinnerung","detail.said_by":"Wer es gesagt hat","detail.edit":"Bearbeiten","detail.edit_help":"Ein geänderter Text wird wie eine neue Erinnerung geprüft: Geheimnisse werden abgelehnt.","detail.choose":"Auswählen …","detail.saved":"Gespeichert.","detail.forget":"Vergessen","detail.forget_confirm":"„{content}“ vergessen? Der Text wird gelöscht, und ein Grabstein verhindert, dass er wieder gelernt wird.","detail.forgotten":"Vergessen.","history.title":"Verlauf","history.single":"Diese Erinnerung wurde nie geändert.","history.window":"von {from} bis {to}","history.since":"seit {from}","pending.title":"Wartet auf Prüfung","pending.help":"Aus Gesprächen gelernt, während die Prüfung vor der Nutzung eingeschaltet ist. Bestätigte Erinnerungen werden ab dann abgerufen; abgelehnte werden vergessen und nicht wieder gelernt.","pending.empty":"Nichts wartet auf Prüfung.","pending.replaces":"Ersetzt eine gespeicherte Tatsache:","pending.approve":"Bestätigen","pending.reject":"Ablehnen","pending.approved":"Bestätigt.","pending.rejected":"Abgelehnt und vergessen.","forget.person_title":"Eine Person vergessen","forget.person_help":"Vergisst alle privaten Erinnerungen der Person. Raum- und Haushalts-Erinnerungen bleiben, aber nicht mehr als von ihr gesagt. Das lässt sich nicht rückgängig machen.","forget.person_submit":"Erinnerungen der Person vergessen","forget.person_confirm":"Alle privaten Erinnerungen von {person} vergessen? Das lässt sich nicht rückgängig machen.","forget.person_done":"Vergessene private Erinnerungen von {person}: {n}","tombstones.title":"Grabsteine","tombstones.help":"Ein Grabstein verhindert, dass eine vergessene Erinnerung wieder gelernt wird. Er enthält keinen Text. Wird er aufgehoben, kann die Erinnerung wieder gelernt werden.","tombstones.empty":"Keine Grabsteine.","tombstones.created":"Vergessen am {time}","tombstones.lifted_at":"aufgehoben am {time}","tombstones.lift":"Aufheben","tombstones.lifted":"Grabstein aufgehoben.","consolidate.title":"Zusammenführen","consolidate.help":"Hält eine aktuelle Erinnerung pro Tatsache: Wiederholungen werden zusammengeführt, ältere Werte werden Verlauf, ungenutzte Vermutungen entfernt. Läuft auch einmal am Tag. Erst ansehen, was es tun würde, dann ausführen.","consolidate.dry_run":"Zeigen, was es tun würde","consolidate.run":"Jetzt ausführen","consolidate.plan_title":"Was es tun würde","consolidate.done_title":"Erledigt","consolidate.nothing":"Nichts zu tun.","consolidate.merged":"Zusammengeführt","consolidate.superseded":"Ersetzt","consolidate.pruned":"Entfernte Vermutungen","consolidate.judged":"Von der KI-Aufgabe geklärt","consolidate.conflicts":"Mögliche Konflikte","consolidate.changes_title":"Änderungen","consolidate.would_merge":"Zusammenführen","consolidate.would_supersede":"Ersetzen","consolidate.prune_title":"Zu entfernende Vermutungen","consolidate.conflicts_title":"Mögliche Konflikte, die eine Person klären muss","consolidate.similarity":"Ähnlichkeit {value}","transfer.export_title":"Export","transfer.export_help":"Lädt alle Erinnerungen mit Verlauf und Herkunft als lesbare JSON-Datei herunter. Vergessene Erinnerungen erscheinen nur als Anzahl.","transfer.export":"Export herunterladen","transfer.exported":"Exportierte Erinnerungen: {n} ({file})","transfer.import_title":"Import","transfer.import_help":"Liest eine Exportdatei. Jede Erinnerung wird wie eine neue geprüft; Doppelte werden übersprungen, nichts wird überschrieben.","transfer.choose_file":"Exportdatei (JSON)","transfer.invalid_json":"{file} ist keine JSON-Datei.","transfer.importing":"Importiere: {done} von {total}","transfer.created":"Importiert: {n}","transfer.duplicates":"Schon bekannt: {n}","transfer.rejected":"Abgelehnt: {n}","transfer.rejected_item":"Erinnerung {index}: {reason}","transfer.reason.conflict":"für diese Tatsache ist hier schon ein anderer Wert gespeichert; nichts wurde überschrieben","transfer.reason.forgotten":"sie wurde hier vergessen und bleibt vergessen","transfer.reason.sensitive_content":"automatisch gelernt, enthält aber einen Code oder eine Zahlungs- oder Gesundheitsangabe","transfer.reason.other":"nicht angenommen: ein Feld fehlt, ist ungültig oder hier unbekannt","settings.title":"Lernen","settings.help":"Dieselben Optionen wie im Optionsdialog der Integration.","settings.learning":"Aus Gesprächen lernen","settings.learning_help":"Der Gedächtnis-Assistent lernt selbstständig Erinnerungen aus Gesprächen. Gesprächsprotokolle werden in jedem Fall gespeichert.","settings.opt_out":"Ausgenommene Bereiche","settings.opt_out_help":"Aus Gesprächen in diesen Bereichen wird nie gelernt.","settings.no_areas":"Es sind keine Bereiche eingerichtet.","settings.review":"Gelernte Erinnerungen vor der Nutzung prüfen","settings.review_help":"Gelernte Erinnerungen warten hier und werden nie abgerufen, bis sie bestätigt oder abgelehnt werden.","settings.cloud":"Persönliche Erinnerungen an ein Cloud-Modell erlauben","settings.cloud_help":"Aus: Gespräche einer erkannten Person werden nie an eine Cloud-KI-Aufgabe gesendet. Sensible Wörter werden nie gesendet, egal was hier steht.","settings.retention":"Aufbewahrung der Gesprächsprotokolle (Tage)","settings.retention_help":"Gespeicherte Gesprächsprotokolle, die älter sind, werden einmal täglich gelöscht ({min} bis {max}).","settings.retention_invalid":"{field}: Gib eine ganze Zahl von Tagen zwischen {min} und {max} ein.","settings.reset":"Änderungen verwerfen","settings.saved":"Gespeichert.","voice.title":"Stimmen","voice.help":"Haushaltsmitglieder mit eingelernter Stimme werden an Sprachsatelliten erkannt, damit ihre privaten Erinnerungen auch per Sprache funktionieren. Eine Bequemlichkeit, keine Authentifizierung. Stimmabdrücke bleiben im Erinnerungsspeicher; Aufnahmen werden nie aufbewahrt.","voice.off":"Die Stimmerkennung ist in den Optionen von Household Memory ausgeschaltet: Es kann keine Stimme eingelernt werden.","voice.no_persons":"Noch keine Personen: Lege die Haushaltsmitglieder in den Einstellungen von Home Assistant als Personen an.","voice.state":"Stimme","voice.enrolled":"Eingelernt aus {n} Clips, {time}","voice.not_enrolled":"Nicht eingelernt","voice.enrol":"Einlernen","voice.re_enrol":"Neu einlernen","voice.forget":"Stimme vergessen","voice.forget_confirm":"Die Stimme von {person} vergessen? Die Person wird nicht mehr an der Stimme erkannt, bis sie neu eingelernt wird; ihre Erinnerungen bleiben.","voice.forgotten":"Die Stimme von {person} ist vergessen.","voice.nothing_to_forget":"{person} hatte keine eingelernte Stimme.","voice.enrolled_done":"Die Stimme von {person} ist aus {n} Clips eingelernt.","voice.enrol_title":"Stimme von {person} einlernen","voice.source":"Clips aus","voice.source_record":"Aufnahmen hier oder WAV-Dateien","voice.source_satellite":"Dem, was ein Satellit zuletzt gehört hat","voice.record_help":"Lass die Person allein in einem ruhigen Raum mit normaler Stimme ein paar Sätze vorlesen, einen ganzen Satz pro Clip: mindestens {min} Clips von je etwa 2 bis 10 Sekunden (höchstens {max} Sekunden); ein kurzer Befehl ist zu kurz. Neu einlernen ersetzt die alte Stimme.","voice.record":"Clip aufnehmen","voice.stop":"Stopp","voice.recording":"Aufnahme: {s} s von höchstens {max} s","voice.level":"Mikrofonpegel","voice.no_mic":"Das Mikrofon lässt sich nur nutzen, wenn Home Assistant über HTTPS (oder auf diesem Computer) geöffnet ist. Lade stattdessen WAV-Dateien hoch.","voice.mic_refused":"Das Mikrofon ließ sich nicht öffnen: Erlaube dieser Seite den Zugriff oder lade WAV-Dateien hoch.","voice.upload":"Oder WAV-Dateien hochladen","voice.file_unreadable":"{file} lässt sich nicht als Audio lesen.","voice.file_too_long":"{file} ist länger als {max} Sekunden; nimm einen kürzeren Clip.","voice.too_many":"Höchstens {max} Clips ergeben einen Stimmabdruck; verwirf einige.","voice.too_much_audio":"Die Clips enthalten zusammen mehr als {max} Sekunden Audio; verwirf einige.","voice.clip_name":"Clip {n}","voice.seconds":"{s} s","voice.discard":"Verwerfen","voice.clip_ok":"Brauchbar","voice.speech":"Sprache","voice.level_label":"Pegel","voice.level_value":"{level} dBFS (Spitze {peak} dBFS)","voice.clipping":"Übersteuerte Samples","voice.snr":"Signal-Rausch-Abstand","voice.snr_value":"{db} dB","voice.same":"Dieselbe Stimme wie in den anderen Clips","voice.same_yes":"Ja ({score})","voice.same_no":"Nein ({score})","voice.same_unknown":"Nicht verglichen: kein anderer brauchbarer Clip","voice.problem.no_speech":"Abgelehnt: keine Sprache gehört; sprich nah am Mikrofon und prüfe, ob es aufnimmt","voice.problem.too_short":"Abgelehnt: zu wenig Sprache; sprich einen ganzen Satz von etwa 2 bis 10 Sekunden","voice.problem.noisy":"Abgelehnt: zu viel Hintergrundgeräusch; nimm in einem ruhigen Raum auf (ohne Fernseher, Musik, Ventilator oder Gespräche)","voice.problem.two_voices":"Abgelehnt: mehr als eine Stimme; nimm die Person allein auf","voice.problem.other_voice":"Abgelehnt: eine andere Stimme als in den anderen Clips; nimm ihn mit derselben Person noch einmal auf","voice.warning.quiet":"Leise: näher sprechen oder die Mikrofonverstärkung erhöhen","voice.warning.clipping":"Zu laut: die Mikrofonverstärkung senken","voice.assess":"Äußerungen prüfen","voice.assessing":"Clips werden geprüft …","voice.expected":"Erwartete Erkennung","voice.expected_sentence":"Ein Satz in einem ruhigen Raum","voice.expected_command":"Ein kurzer Befehl","voice.expected_noisy":"Ein Satz mit Geräuschen im Raum","voice.expected_help":"Eine Schätzung allein aus diesen Clips: der Anteil der Äußerungen dieser Person, in denen ihre Stimme erkannt werden sollte.","voice.other_person":"Diese Clips klingen wie die eingelernte Stimme von {person}: Niemand kann die Stimme eines anderen einlernen.","voice.not_ready":"Noch nicht bereit zum Einlernen: Jeder Clip muss brauchbar sein, und mindestens {min} werden gebraucht.","voice.enrol_submit":"Diese Stimme einlernen","voice.satellite_help":"Die letzten Äußerungen, die ein Sprachsatellit in den vergangenen 15 Minuten gehört hat. Nutze sie nur, wenn du weißt, dass diese Person sie alle gesagt hat.","voice.satellite":"Satellit","voice.satellite_option":"{name} ({n} Äußerungen)","voice.utterances":"Zu nutzende letzte Äußerungen","voice.no_satellite":"Kein Satellit hat in den letzten 15 Minuten etwas gehört. Lass die Person mit einem Satelliten sprechen und aktualisiere dann.","voice.recent_title":"Zuletzt erkannt","voice.recent_help":"Wer die letzten {n} Äußerungen an jedem Satelliten gesprochen hat und wie sicher die Erkennung war: der Wert der ähnlichsten Stimme gegen die Schwelle, die diese Äußerung brauchte, die gehörte Sprache und ihr Pegel über dem Raumgeräusch, und ob es für Bitten wie „Vergiss alles über mich“ sicher genug war (streng). Nur im Speicher seit dem Start von Home Assistant; kein Ton und keine Worte.","voice.recent_none":"Seit dem Start von Home Assistant wurde an keinem Satelliten etwas gehört.","voice.col_time":"Zeit","voice.col_who":"Erkannt","voice.col_score":"Wert (Schwelle)","voice.col_snr":"Pegel über Geräusch","voice.col_strict":"Streng","voice.unknown":"Unbekannt","voice.recognised_by":"{person}, an {by}","voice.by.voice":"der Stimme","voice.by.tag":"der Kennzeichnung „{name}“ der Spracherkennung","voice.by.speaker_id":"dem Sprecher „{name}“ der Spracherkennung","voice.named_other":"Unbekannt: Die Spracherkennung nannte „{name}“, die Stimme klang nach {person}","voice.named_nobody":"Unbekannt: Die Spracherkennung nannte „{name}“, keine Person hier","voice.score_value":"{score} ({threshold})"};var ze={"panel.title":"Memory","panel.menu":"Open the sidebar","panel.sections":"Sections of the memory panel","tab.overview":"Overview","tab.list":"Memories","tab.search":"Search","tab.pending":"Review","tab.forget":"Forget","tab.consolidate":"Consolidate","tab.transfer":"Export & import","tab.settings":"Learning","tab.voice":"Voices","common.back":"Back","common.cancel":"Cancel","common.loading":"Loading…","common.refresh":"Refresh","common.save":"Save","common.yes":"Yes","common.no":"No","kind.fact":"Fact","kind.preference":"Preference","kind.episode":"Event","kind.procedure":"How-to","kind.note":"Note","scope.private":"Private","scope.room":"Room","scope.shared":"Household","scope.system":"System","scope.private_of":"Private to {person}","scope.room_of":"Room: {room}","provenance.confirmed":"Confirmed","provenance.observed":"Observed","provenance.extracted":"Learned from a conversation","provenance.inferred":"Guessed","status.active":"Current","status.pending":"Awaiting review","status.superseded":"Replaced","status.archived":"Merged","source.voice":"Voice","source.service":"Action","source.extraction":"Learning","source.automation":"Automation","source.admin":"Administrator","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Meaning","factor.lexical":"Matching words","factor.provenance":"Provenance","factor.importance":"Importance","factor.recency":"Recency","factor.translation":"Matching words across languages","factor.named":"Names a person","factor.about_speaker":"About the speaker","factor.context":"Conversation context","factor.conversation":"Same conversation","factor.newer":"Newer value","said_by.person_room":"Said by {person} in {room}, {time}","said_by.person":"Said by {person}, {time}","said_by.unknown_room":"Said by an unknown speaker in {room}, {time}","said_by.unknown":"Said by an unknown speaker, {time}","memory.open":"Open","memory.sensitive":"Sensitive","field.content":"Text","field.kind":"Kind","field.scope":"Who may hear it","field.owner":"Owner","field.person":"Person","field.area":"Area","field.provenance":"Provenance","field.status":"Status","field.language":"Language","field.said_by":"Said by","field.sensitive":"Sensitive","field.importance":"Importance","field.confidence":"Confidence","field.fact":"Fact","field.source":"Source","field.created":"Saved","field.updated":"Last changed","field.valid":"Valid","field.id":"ID","filter.any":"Any","filter.person":"Person (owner or speaker)","filter.language_hint":"e.g. en","page.previous":"Previous","page.next":"Next","page.range":"{first}–{last} of {total}","page.size":"Per page","overview.pending":"Awaiting review","overview.tombstones":"Tombstones","overview.review":"Review now","overview.by_scope":"Memories by who may hear them","overview.by_provenance":"Memories by provenance","overview.by_status":"Memories by status","overview.none":"None yet.","overview.last_consolidation":"Last consolidation","overview.never":"Never","overview.store":"Store","overview.encoder":"Encoder","overview.dimension":"{n} dimensions","list.title":"Memories","list.filters":"Filters","list.empty":"No memories match these filters.","search.title":"Search as a speaker","search.help":"Shows what the assistant would recall for this person in this room, and why each memory surfaced.","search.query":"Question or words","search.as_person":"Speaker","search.unknown_speaker":"Unknown speaker","search.in_area":"Room","search.no_area":"No room","search.limit":"Results","search.submit":"Search","search.empty":"Nothing this speaker would hear matches.","search.score":"Score {score} · similarity {similarity}","search.why":"Why it surfaced","search.outdated":"A newer value has replaced this one.","search.open_newer":"Open the newer value","search.withheld_title":"Kept from this speaker","search.withheld_help":"Recalled, but sensitive: the assistant would not tell these to this speaker (an unknown speaker hears no code, payment or health detail).","search.withheld_mark":"Withheld: not told to this speaker","detail.title":"Memory","detail.said_by":"Who said it","detail.edit":"Edit","detail.edit_help":"A changed text is checked like a new memory: secrets are refused.","detail.choose":"Choose…","detail.saved":"Saved.","detail.forget":"Forget","detail.forget_confirm":"Forget “{content}”? Its text is deleted, and a tombstone keeps it from being learned again.","detail.forgotten":"Forgotten.","history.title":"History","history.single":"This memory has never changed.","history.window":"from {from} until {to}","history.since":"since {from}","pending.title":"Awaiting review","pending.help":"Learned from conversations while review before use is on. Approved memories are recalled from then on; rejected ones are forgotten and not learned again.","pending.empty":"Nothing awaits review.","pending.replaces":"Replaces a saved fact:","pending.approve":"Approve","pending.reject":"Reject","pending.approved":"Approved.","pending.rejected":"Rejected and forgotten.","forget.person_title":"Forget a person","forget.person_help":"Forgets every private memory of the person. Room and household memories stay, no longer recorded as said by them. This cannot be undone.","forget.person_submit":"Forget the person's memories","forget.person_confirm":"Forget every private memory of {person}? This cannot be undone.","forget.person_done":"Private memories of {person} forgotten: {n}","tombstones.title":"Tombstones","tombstones.help":"A tombstone keeps a forgotten memory from being learned again. It holds no text. Lifting it lets the memory be learned again.","tombstones.empty":"No tombstones.","tombstones.created":"Forgotten {time}","tombstones.lifted_at":"lifted {time}","tombstones.lift":"Lift","tombstones.lifted":"Tombstone lifted.","consolidate.title":"Consolidation","consolidate.help":"Keeps one current memory per fact: restatements are merged, older values become history, unused guesses are removed. It also runs once a day. See what it would do first, then run it.","consolidate.dry_run":"Show what it would do","consolidate.run":"Run now","consolidate.plan_title":"What it would do","consolidate.done_title":"Done","consolidate.nothing":"Nothing to do.","consolidate.merged":"Merged","consolidate.superseded":"Replaced","consolidate.pruned":"Removed guesses","consolidate.judged":"Settled by the AI task","consolidate.conflicts":"Possible conflicts","consolidate.changes_title":"Changes","consolidate.would_merge":"Merge","consolidate.would_supersede":"Replace","consolidate.prune_title":"Guesses to remove","consolidate.conflicts_title":"Possible conflicts left for a person","consolidate.similarity":"similarity {value}","transfer.export_title":"Export","transfer.export_help":"Downloads every memory with its history and provenance as a JSON file you can read. Forgotten memories appear only as counts.","transfer.export":"Download export","transfer.exported":"Exported memories: {n} ({file})","transfer.import_title":"Import","transfer.import_help":"Reads an export file. Every memory is checked like a new one; duplicates are skipped and nothing is overwritten.","transfer.choose_file":"Export file (JSON)","transfer.invalid_json":"{file} is not a JSON file.","transfer.importing":"Importing: {done} of {total}","transfer.created":"Imported: {n}","transfer.duplicates":"Already known: {n}","transfer.rejected":"Refused: {n}","transfer.rejected_item":"Memory {index}: {reason}","transfer.reason.conflict":"a different value of this fact is already saved here; nothing was overwritten","transfer.reason.forgotten":"it was forgotten here and stays forgotten","transfer.reason.sensitive_content":"learned automatically, yet it holds a code, payment or health detail","transfer.reason.other":"not accepted: a field is missing, not valid or unknown here","settings.title":"Learning","settings.help":"The same options as the integration's options dialog.","settings.learning":"Learn from conversations","settings.learning_help":"The memory assistant learns memories from conversations by itself. Conversation transcripts are stored either way.","settings.opt_out":"Areas that opt out","settings.opt_out_help":"Conversations in these areas are never learned from.","settings.no_areas":"No areas are set up.","settings.review":"Review learned memories before use","settings.review_help":"Learned memories wait here and are never recalled until approved or rejected.","settings.cloud":"Allow personal memories to a cloud model","settings.cloud_help":"Off: a recognised person's conversations are never sent to a cloud AI task. Sensitive words are never sent, whatever this says.","settings.retention":"Transcript retention (days)","settings.retention_help":"Stored conversation transcripts older than this are deleted once a day ({min} to {max}).","settings.retention_invalid":"{field}: enter a whole number of days from {min} to {max}.","settings.reset":"Undo changes","settings.saved":"Saved.","voice.title":"Voices","voice.help":"Household members whose voice is enrolled are recognised at voice satellites, so their private memories work by voice. A convenience, not authentication. Voiceprints stay in the memory store; recordings are never kept.","voice.off":"Voice recognition is turned off in the Household Memory options: no voice can be enrolled.","voice.no_persons":"No persons yet: add the household's members as persons in Home Assistant's settings.","voice.state":"Voice","voice.enrolled":"Enrolled from {n} clips, {time}","voice.not_enrolled":"Not enrolled","voice.enrol":"Enrol","voice.re_enrol":"Enrol again","voice.forget":"Forget voice","voice.forget_confirm":"Forget the voice of {person}? They are no longer recognised by voice until enrolled again; their memories stay.","voice.forgotten":"The voice of {person} is forgotten.","voice.nothing_to_forget":"{person} had no enrolled voice.","voice.enrolled_done":"The voice of {person} is enrolled from {n} clips.","voice.enrol_title":"Enrol the voice of {person}","voice.source":"Clips from","voice.source_record":"Recordings here or WAV files","voice.source_satellite":"What a satellite heard last","voice.record_help":"Let the person read a few sentences aloud in their normal voice, alone in a quiet room, one whole sentence per clip: at least {min} clips of about 2 to 10 seconds each (at most {max} seconds); a short command is too short. Enrolling again replaces the old voice.","voice.record":"Record a clip","voice.stop":"Stop","voice.recording":"Recording: {s} s of at most {max} s","voice.level":"Microphone level","voice.no_mic":"The microphone can only be used when Home Assistant is opened over HTTPS (or on this computer). Upload WAV files instead.","voice.mic_refused":"The microphone could not be opened: allow this page to use it, or upload WAV files.","voice.upload":"Or upload WAV files","voice.file_unreadable":"{file} cannot be read as audio.","voice.file_too_long":"{file} is longer than {max} seconds; use a shorter clip.","voice.too_many":"At most {max} clips make a voiceprint; discard some.","voice.too_much_audio":"The clips hold more than {max} seconds of audio together; discard some.","voice.clip_name":"Clip {n}","voice.seconds":"{s} s","voice.discard":"Discard","voice.clip_ok":"Usable","voice.speech":"Speech","voice.level_label":"Level","voice.level_value":"{level} dBFS (peak {peak} dBFS)","voice.clipping":"Clipped samples","voice.snr":"Signal to noise","voice.snr_value":"{db} dB","voice.same":"Same voice as the other clips","voice.same_yes":"Yes ({score})","voice.same_no":"No ({score})","voice.same_unknown":"Not compared: no other usable clip","voice.problem.no_speech":"Rejected: no speech heard; speak close to the microphone and check that it records","voice.problem.too_short":"Rejected: too little speech; say one whole sentence of about 2 to 10 seconds","voice.problem.noisy":"Rejected: too noisy; record in a quiet room (no TV, music, fan or other talk)","voice.problem.two_voices":"Rejected: more than one voice; record the person alone","voice.problem.other_voice":"Rejected: a different voice from the other clips; record it again with the same person","voice.warning.quiet":"Quiet: speak closer or raise the microphone's gain","voice.warning.clipping":"Too loud: lower the microphone's gain","voice.assess":"Check the utterances","voice.assessing":"Checking the clips…","voice.expected":"Expected recognition","voice.expected_sentence":"A sentence in a quiet room","voice.expected_command":"A short command","voice.expected_noisy":"A sentence with noise around","voice.expected_help":"An estimate from these clips alone: the share of this person's utterances in which their voice should be recognised.","voice.other_person":"These clips sound like the enrolled voice of {person}: nobody can enrol someone else's voice.","voice.not_ready":"Not ready to enrol: every clip must be usable, and at least {min} are needed.","voice.enrol_submit":"Enrol this voice","voice.satellite_help":"The last utterances heard at a voice satellite in the past 15 minutes. Use them only when you know this person said all of them.","voice.satellite":"Satellite","voice.satellite_option":"{name} ({n} utterances)","voice.utterances":"Last utterances to use","voice.no_satellite":"No satellite has heard anything in the last 15 minutes. Let the person talk to a satellite, then refresh.","voice.recent_title":"Recent recognitions","voice.recent_help":`Who spoke the last {n} utterances at each satellite, and how sure the recognition was: the score of the closest voice against the threshold that utterance needed, the speech heard and its level over the room's noise, and whether it was sure enough for requests like "forget everything about me" (strict). Kept in memory only since Home Assistant started; no audio and no words.`,"voice.recent_none":"No satellite has been heard since Home Assistant started.","voice.col_time":"Time","voice.col_who":"Recognised","voice.col_score":"Score (threshold)","voice.col_snr":"Level over noise","voice.col_strict":"Strict","voice.unknown":"Unknown","voice.recognised_by":"{person}, by {by}","voice.by.voice":"voice","voice.by.tag":`the speech-to-text engine's tag "{name}"`,"voice.by.speaker_id":`the speech-to-text engine's speaker "{name}"`,"voice.named_other":'Unknown: the speech-to-text engine named "{name}", the voice sounded like {person}',"voice.named_nobody":'Unknown: the speech-to-text engine named "{name}", who is no person here',"voice.score_value":"{score} ({threshold})"};var $t={"panel.title":"Memoria","panel.menu":"Abrir la barra lateral","panel.sections":"Secciones del panel Memoria","tab.overview":"Resumen","tab.list":"Recuerdos","tab.search":"Búsqueda","tab.pending":"Por revisar","tab.forget":"Olvidar","tab.consolidate":"Consolidar","tab.transfer":"Exportar e importar","tab.settings":"Aprendizaje","tab.voice":"Voces","common.back":"Volver","common.cancel":"Cancelar","common.loading":"Cargando…","common.refresh":"Actualizar","common.save":"Guardar","common.yes":"Sí","common.no":"No","kind.fact":"Hecho","kind.preference":"Preferencia","kind.episode":"Episodio","kind.procedure":"Procedimiento","kind.note":"Nota","scope.private":"Privado","scope.room":"Habitación","scope.shared":"Hogar","scope.system":"Sistema","scope.private_of":"Privado de {person}","scope.room_of":"Habitación: {room}","provenance.confirmed":"Confirmado","provenance.observed":"Observado","provenance.extracted":"Aprendido de una conversación","provenance.inferred":"Supuesto","status.active":"Actual","status.pending":"Pendiente de revisión","status.superseded":"Reemplazado","status.archived":"Fusionado","source.voice":"Voz","source.service":"Acción","source.extraction":"Aprendizaje","source.automation":"Automatización","source.admin":"Administrador","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Significado","factor.lexical":"Palabras en común","factor.provenance":"Procedencia","factor.importance":"Importancia","factor.recency":"Actualidad","factor.translation":"Palabras en común en otro idioma","factor.named":"Nombra a una persona","factor.about_speaker":"Sobre quien habla","factor.context":"Contexto de la conversación","factor.conversation":"Misma conversación","factor.newer":"Valor más reciente","said_by.person_room":"Dicho por {person} en {room}, {time}","said_by.person":"Dicho por {person}, {time}","said_by.unknown_room":"Dicho por un hablante desconocido en {room}, {time}","said_by.unknown":"Dicho por un hablante desconocido, {time}","memory.open":"Abrir","memory.sensitive":"Sensible","field.content":"Texto","field.kind":"Tipo","field.scope":"Quién puede oírlo","field.owner":"Propietario","field.person":"Persona","field.area":"Área","field.provenance":"Procedencia","field.status":"Estado","field.language":"Idioma","field.said_by":"Dicho por","field.sensitive":"Sensible","field.importance":"Importancia","field.confidence":"Confianza","field.fact":"Hecho","field.source":"Origen","field.created":"Guardado","field.updated":"Último cambio","field.valid":"Válido","field.id":"ID","filter.any":"Todos","filter.person":"Persona (propietario o hablante)","filter.language_hint":"p. ej. es","page.previous":"Anterior","page.next":"Siguiente","page.range":"{first}–{last} de {total}","page.size":"Por página","overview.pending":"Pendientes de revisión","overview.tombstones":"Lápidas","overview.review":"Revisar ahora","overview.by_scope":"Recuerdos según quién puede oírlos","overview.by_provenance":"Recuerdos por procedencia","overview.by_status":"Recuerdos por estado","overview.none":"Todavía ninguno.","overview.last_consolidation":"Última consolidación","overview.never":"Nunca","overview.store":"Almacén","overview.encoder":"Codificador","overview.dimension":"{n} dimensiones","list.title":"Recuerdos","list.filters":"Filtros","list.empty":"Ningún recuerdo coincide con estos filtros.","search.title":"Buscar como hablante","search.help":"Muestra lo que el asistente recuperaría para esta persona en esta habitación, y por qué aparece cada recuerdo.","search.query":"Pregunta o palabras","search.as_person":"Hablante","search.unknown_speaker":"Hablante desconocido","search.in_area":"Habitación","search.no_area":"Ninguna habitación","search.limit":"Resultados","search.submit":"Buscar","search.empty":"Nada de lo que este hablante oiría coincide.","search.score":"Puntuación {score} · similitud {similarity}","search.why":"Por qué aparece","search.outdated":"Un valor más reciente ha reemplazado a este.","search.open_newer":"Abrir el valor más reciente","search.withheld_title":"Ocultos a quien habla","search.withheld_help":"Encontrados, pero confidenciales: el asistente no se los diría a quien habla (una persona desconocida no oye códigos ni datos de pago o de salud).","search.withheld_mark":"Oculto: no se le dice a quien habla","detail.title":"Recuerdo","detail.said_by":"Quién lo dijo","detail.edit":"Editar","detail.edit_help":"Un texto cambiado se comprueba como un recuerdo nuevo: los secretos se rechazan.","detail.choose":"Elegir…","detail.saved":"Guardado.","detail.forget":"Olvidar","detail.forget_confirm":"¿Olvidar «{content}»? Su texto se borra y una lápida impide que se vuelva a aprender.","detail.forgotten":"Olvidado.","history.title":"Historial","history.single":"Este recuerdo nunca ha cambiado.","history.window":"del {from} al {to}","history.since":"desde el {from}","pending.title":"Pendientes de revisión","pending.help":"Aprendidos de conversaciones mientras la revisión antes del uso está activada. Los recuerdos aprobados se recuperan desde entonces; los rechazados se olvidan y no se vuelven a aprender.","pending.empty":"Nada espera revisión.","pending.replaces":"Reemplaza un hecho guardado:","pending.approve":"Aprobar","pending.reject":"Rechazar","pending.approved":"Aprobado.","pending.rejected":"Rechazado y olvidado.","forget.person_title":"Olvidar a una persona","forget.person_help":"Olvida todos los recuerdos privados de la persona. Los recuerdos de habitación y del hogar se quedan, sin constar ya como dichos por ella. No se puede deshacer.","forget.person_submit":"Olvidar los recuerdos de la persona","forget.person_confirm":"¿Olvidar todos los recuerdos privados de {person}? No se puede deshacer.","forget.person_done":"Recuerdos privados de {person} olvidados: {n}","tombstones.title":"Lápidas","tombstones.help":"Una lápida impide que un recuerdo olvidado se vuelva a aprender. No contiene texto. Quitarla permite aprenderlo de nuevo.","tombstones.empty":"No hay lápidas.","tombstones.created":"Olvidado el {time}","tombstones.lifted_at":"quitada el {time}","tombstones.lift":"Quitar","tombstones.lifted":"Lápida quitada.","consolidate.title":"Consolidación","consolidate.help":"Mantiene un solo recuerdo actual por hecho: las reformulaciones se fusionan, los valores antiguos pasan al historial y las suposiciones sin usar se eliminan. También se ejecuta una vez al día. Mira primero lo que haría y luego ejecútala.","consolidate.dry_run":"Mostrar lo que haría","consolidate.run":"Ejecutar ahora","consolidate.plan_title":"Lo que haría","consolidate.done_title":"Hecho","consolidate.nothing":"Nada que hacer.","consolidate.merged":"Fusionados","consolidate.superseded":"Reemplazados","consolidate.pruned":"Suposiciones eliminadas","consolidate.judged":"Resueltos por la Tarea de IA","consolidate.conflicts":"Posibles conflictos","consolidate.changes_title":"Cambios","consolidate.would_merge":"Fusionar","consolidate.would_supersede":"Reemplazar","consolidate.prune_title":"Suposiciones que se eliminarían","consolidate.conflicts_title":"Posibles conflictos que debe resolver una persona","consolidate.similarity":"similitud {value}","transfer.export_title":"Exportar","transfer.export_help":"Descarga todos los recuerdos con su historial y procedencia en un archivo JSON legible. Los recuerdos olvidados solo aparecen como recuentos.","transfer.export":"Descargar la exportación","transfer.exported":"Recuerdos exportados: {n} ({file})","transfer.import_title":"Importar","transfer.import_help":"Lee un archivo de exportación. Cada recuerdo se comprueba como uno nuevo; los duplicados se omiten y nada se sobrescribe.","transfer.choose_file":"Archivo de exportación (JSON)","transfer.invalid_json":"{file} no es un archivo JSON.","transfer.importing":"Importando: {done} de {total}","transfer.created":"Importados: {n}","transfer.duplicates":"Ya conocidos: {n}","transfer.rejected":"Rechazados: {n}","transfer.rejected_item":"Recuerdo {index}: {reason}","transfer.reason.conflict":"aquí ya hay guardado otro valor de este hecho; no se sobrescribió nada","transfer.reason.forgotten":"aquí se olvidó y sigue olvidado","transfer.reason.sensitive_content":"aprendido automáticamente, pero contiene un código o un dato de pago o de salud","transfer.reason.other":"no aceptado: falta un campo, no es válido o aquí es desconocido","settings.title":"Aprendizaje","settings.help":"Las mismas opciones que el cuadro de opciones de la integración.","settings.learning":"Aprender de las conversaciones","settings.learning_help":"El asistente de memoria aprende recuerdos de las conversaciones por sí mismo. Las transcripciones de las conversaciones se guardan en cualquier caso.","settings.opt_out":"Áreas excluidas","settings.opt_out_help":"De las conversaciones en estas áreas nunca se aprende.","settings.no_areas":"No hay áreas configuradas.","settings.review":"Revisar los recuerdos aprendidos antes de usarlos","settings.review_help":"Los recuerdos aprendidos esperan aquí y nunca se recuperan hasta que se aprueban o se rechazan.","settings.cloud":"Permitir recuerdos personales a un modelo en la nube","settings.cloud_help":"Desactivado: las conversaciones de una persona reconocida nunca se envían a una Tarea de IA en la nube. Las palabras sensibles nunca se envían, diga lo que diga esta opción.","settings.retention":"Conservación de las transcripciones (días)","settings.retention_help":"Las transcripciones guardadas más antiguas se eliminan una vez al día (de {min} a {max}).","settings.retention_invalid":"{field}: introduce un número entero de días entre {min} y {max}.","settings.reset":"Descartar los cambios","settings.saved":"Guardado.","voice.title":"Voces","voice.help":"Los miembros del hogar con la voz registrada se reconocen en los satélites de voz, para que sus recuerdos privados funcionen también hablando. Una comodidad, no una autenticación. Las huellas de voz se quedan en el almacén de recuerdos; las grabaciones nunca se guardan.","voice.off":"El reconocimiento de voz está desactivado en las opciones de Household Memory: no se puede registrar ninguna voz.","voice.no_persons":"Aún no hay personas: añade a los miembros del hogar como personas en los ajustes de Home Assistant.","voice.state":"Voz","voice.enrolled":"Registrada con {n} clips, {time}","voice.not_enrolled":"No registrada","voice.enrol":"Registrar","voice.re_enrol":"Registrar de nuevo","voice.forget":"Olvidar la voz","voice.forget_confirm":"¿Olvidar la voz de {person}? Ya no se le reconocerá por la voz hasta que se registre de nuevo; sus recuerdos se quedan.","voice.forgotten":"La voz de {person} está olvidada.","voice.nothing_to_forget":"{person} no tenía una voz registrada.","voice.enrolled_done":"La voz de {person} está registrada con {n} clips.","voice.enrol_title":"Registrar la voz de {person}","voice.source":"Clips de","voice.source_record":"Grabaciones aquí o archivos WAV","voice.source_satellite":"Lo último que oyó un satélite","voice.record_help":"Pide a la persona que lea en voz alta unas frases con su voz normal, sola en una habitación tranquila, una frase completa por clip: al menos {min} clips de unos 2 a 10 segundos cada uno (como mucho {max} segundos); una orden corta es demasiado corta. Registrar de nuevo sustituye la voz anterior.","voice.record":"Grabar un clip","voice.stop":"Parar","voice.recording":"Grabando: {s} s de {max} s como mucho","voice.level":"Nivel del micrófono","voice.no_mic":"El micrófono solo se puede usar si Home Assistant está abierto por HTTPS (o en este ordenador). Sube archivos WAV en su lugar.","voice.mic_refused":"No se pudo abrir el micrófono: permite que esta página lo use, o sube archivos WAV.","voice.upload":"O sube archivos WAV","voice.file_unreadable":"{file} no se puede leer como audio.","voice.file_too_long":"{file} dura más de {max} segundos; usa un clip más corto.","voice.too_many":"Como mucho {max} clips forman una huella de voz; descarta algunos.","voice.too_much_audio":"Los clips suman más de {max} segundos de audio; descarta algunos.","voice.clip_name":"Clip {n}","voice.seconds":"{s} s","voice.discard":"Descartar","voice.clip_ok":"Utilizable","voice.speech":"Habla","voice.level_label":"Nivel","voice.level_value":"{level} dBFS (pico {peak} dBFS)","voice.clipping":"Muestras saturadas","voice.snr":"Relación señal/ruido","voice.snr_value":"{db} dB","voice.same":"Misma voz que los otros clips","voice.same_yes":"Sí ({score})","voice.same_no":"No ({score})","voice.same_unknown":"Sin comparar: no hay otro clip utilizable","voice.problem.no_speech":"Rechazado: no se oyó habla; habla cerca del micrófono y comprueba que graba","voice.problem.too_short":"Rechazado: muy poca habla; di una frase completa de unos 2 a 10 segundos","voice.problem.noisy":"Rechazado: demasiado ruido; graba en una habitación tranquila (sin televisión, música, ventilador ni conversaciones)","voice.problem.two_voices":"Rechazado: más de una voz; graba a la persona sola","voice.problem.other_voice":"Rechazado: una voz distinta de la de los otros clips; vuelve a grabarlo con la misma persona","voice.warning.quiet":"Bajo: habla más cerca o sube la ganancia del micrófono","voice.warning.clipping":"Demasiado alto: baja la ganancia del micrófono","voice.assess":"Comprobar las frases","voice.assessing":"Comprobando los clips…","voice.expected":"Reconocimiento esperado","voice.expected_sentence":"Una frase en una habitación tranquila","voice.expected_command":"Una orden corta","voice.expected_noisy":"Una frase con ruido alrededor","voice.expected_help":"Una estimación solo a partir de estos clips: la parte de las frases de esta persona en las que se debería reconocer su voz.","voice.other_person":"Estos clips suenan como la voz registrada de {person}: nadie puede registrar la voz de otra persona.","voice.not_ready":"Aún no está listo: cada clip debe ser utilizable, y hacen falta al menos {min}.","voice.enrol_submit":"Registrar esta voz","voice.satellite_help":"Las últimas frases que oyó un satélite de voz en los últimos 15 minutos. Úsalas solo si sabes que esta persona las dijo todas.","voice.satellite":"Satélite","voice.satellite_option":"{name} ({n} frases)","voice.utterances":"Últimas frases que usar","voice.no_satellite":"Ningún satélite ha oído nada en los últimos 15 minutos. Haz que la persona hable a un satélite y luego actualiza.","voice.recent_title":"Reconocimientos recientes","voice.recent_help":"Quién dijo las últimas {n} frases en cada satélite y con qué seguridad: la puntuación de la voz más parecida frente al umbral que necesitaba esa frase, el habla oída y su nivel sobre el ruido de la sala, y si bastaba para peticiones como «olvida todo sobre mí» (estricto). Solo en memoria desde que se inició Home Assistant; sin audio ni palabras.","voice.recent_none":"Ningún satélite ha oído nada desde que se inició Home Assistant.","voice.col_time":"Hora","voice.col_who":"Reconocido","voice.col_score":"Puntuación (umbral)","voice.col_snr":"Nivel sobre el ruido","voice.col_strict":"Estricto","voice.unknown":"Desconocido","voice.recognised_by":"{person}, por {by}","voice.by.voice":"la voz","voice.by.tag":"la etiqueta «{name}» del motor de voz a texto","voice.by.speaker_id":"el hablante «{name}» del motor de voz a texto","voice.named_other":"Desconocido: el motor de voz a texto indicó «{name}», la voz sonaba como {person}","voice.named_nobody":"Desconocido: el motor de voz a texto indicó «{name}», que no es ninguna persona de aquí","voice.score_value":"{score} ({threshold})"};var wt={"panel.title":"Mémoire","panel.menu":"Ouvrir la barre latérale","panel.sections":"Sections du panneau Mémoire","tab.overview":"Vue d'ensemble","tab.list":"Souvenirs","tab.search":"Recherche","tab.pending":"À vérifier","tab.forget":"Oublier","tab.consolidate":"Consolider","tab.transfer":"Export et import","tab.settings":"Apprentissage","tab.voice":"Voix","common.back":"Retour","common.cancel":"Annuler","common.loading":"Chargement…","common.refresh":"Actualiser","common.save":"Enregistrer","common.yes":"Oui","common.no":"Non","kind.fact":"Fait","kind.preference":"Préférence","kind.episode":"Épisode","kind.procedure":"Procédure","kind.note":"Note","scope.private":"Privé","scope.room":"Pièce","scope.shared":"Foyer","scope.system":"Système","scope.private_of":"Privé pour {person}","scope.room_of":"Pièce : {room}","provenance.confirmed":"Confirmé","provenance.observed":"Observé","provenance.extracted":"Appris d'une conversation","provenance.inferred":"Supposé","status.active":"Actuel","status.pending":"En attente de vérification","status.superseded":"Remplacé","status.archived":"Fusionné","source.voice":"Voix","source.service":"Action","source.extraction":"Apprentissage","source.automation":"Automatisation","source.admin":"Administrateur","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Sens","factor.lexical":"Mots communs","factor.provenance":"Provenance","factor.importance":"Importance","factor.recency":"Fraîcheur","factor.translation":"Mots communs dans une autre langue","factor.named":"Nomme une personne","factor.about_speaker":"Concerne l'interlocuteur","factor.context":"Contexte de la conversation","factor.conversation":"Même conversation","factor.newer":"Valeur plus récente","said_by.person_room":"Dit par {person} dans {room}, {time}","said_by.person":"Dit par {person}, {time}","said_by.unknown_room":"Dit par un interlocuteur inconnu dans {room}, {time}","said_by.unknown":"Dit par un interlocuteur inconnu, {time}","memory.open":"Ouvrir","memory.sensitive":"Sensible","field.content":"Texte","field.kind":"Type","field.scope":"Qui peut l'entendre","field.owner":"Propriétaire","field.person":"Personne","field.area":"Zone","field.provenance":"Provenance","field.status":"État","field.language":"Langue","field.said_by":"Dit par","field.sensitive":"Sensible","field.importance":"Importance","field.confidence":"Confiance","field.fact":"Fait","field.source":"Source","field.created":"Enregistré","field.updated":"Dernière modification","field.valid":"Valable","field.id":"Identifiant","filter.any":"Tous","filter.person":"Personne (propriétaire ou interlocuteur)","filter.language_hint":"p. ex. fr","page.previous":"Précédent","page.next":"Suivant","page.range":"{first}–{last} sur {total}","page.size":"Par page","overview.pending":"En attente de vérification","overview.tombstones":"Pierres tombales","overview.review":"Vérifier maintenant","overview.by_scope":"Souvenirs selon qui peut les entendre","overview.by_provenance":"Souvenirs par provenance","overview.by_status":"Souvenirs par état","overview.none":"Aucun pour l'instant.","overview.last_consolidation":"Dernière consolidation","overview.never":"Jamais","overview.store":"Stockage","overview.encoder":"Encodeur","overview.dimension":"{n} dimensions","list.title":"Souvenirs","list.filters":"Filtres","list.empty":"Aucun souvenir ne correspond à ces filtres.","search.title":"Rechercher en tant qu'interlocuteur","search.help":"Montre ce que l'assistant rappellerait pour cette personne dans cette pièce, et pourquoi chaque souvenir apparaît.","search.query":"Question ou mots","search.as_person":"Interlocuteur","search.unknown_speaker":"Interlocuteur inconnu","search.in_area":"Pièce","search.no_area":"Aucune pièce","search.limit":"Résultats","search.submit":"Rechercher","search.empty":"Rien de ce que cet interlocuteur entendrait ne correspond.","search.score":"Score {score} · similarité {similarity}","search.why":"Pourquoi il apparaît","search.outdated":"Une valeur plus récente a remplacé celle-ci.","search.open_newer":"Ouvrir la valeur plus récente","search.withheld_title":"Caché à cette personne","search.withheld_help":"Retrouvés, mais confidentiels : l'assistant ne les dirait pas à cette personne (une personne inconnue n'entend ni code, ni donnée de paiement ou de santé).","search.withheld_mark":"Caché : pas dit à cette personne","detail.title":"Souvenir","detail.said_by":"Qui l'a dit","detail.edit":"Modifier","detail.edit_help":"Un texte modifié est vérifié comme un nouveau souvenir : les secrets sont refusés.","detail.choose":"Choisir…","detail.saved":"Enregistré.","detail.forget":"Oublier","detail.forget_confirm":"Oublier « {content} » ? Son texte est supprimé et une pierre tombale empêche qu'il soit appris de nouveau.","detail.forgotten":"Oublié.","history.title":"Historique","history.single":"Ce souvenir n'a jamais changé.","history.window":"du {from} au {to}","history.since":"depuis le {from}","pending.title":"En attente de vérification","pending.help":"Appris des conversations pendant que la vérification avant usage est activée. Les souvenirs approuvés sont rappelés dès lors ; les souvenirs rejetés sont oubliés et ne sont plus appris.","pending.empty":"Rien n'attend de vérification.","pending.replaces":"Remplace un fait enregistré :","pending.approve":"Approuver","pending.reject":"Rejeter","pending.approved":"Approuvé.","pending.rejected":"Rejeté et oublié.","forget.person_title":"Oublier une personne","forget.person_help":"Oublie tous les souvenirs privés de la personne. Les souvenirs de pièce et du foyer restent, sans plus être attribués à cette personne. Action irréversible.","forget.person_submit":"Oublier les souvenirs de la personne","forget.person_confirm":"Oublier tous les souvenirs privés de {person} ? Action irréversible.","forget.person_done":"Souvenirs privés de {person} oubliés : {n}","tombstones.title":"Pierres tombales","tombstones.help":"Une pierre tombale empêche qu'un souvenir oublié soit appris de nouveau. Elle ne contient aucun texte. La lever permet de l'apprendre à nouveau.","tombstones.empty":"Aucune pierre tombale.","tombstones.created":"Oublié le {time}","tombstones.lifted_at":"levée le {time}","tombstones.lift":"Lever","tombstones.lifted":"Pierre tombale levée.","consolidate.title":"Consolidation","consolidate.help":"Garde un seul souvenir actuel par fait : les reformulations sont fusionnées, les anciennes valeurs passent dans l'historique, les suppositions inutilisées sont supprimées. Elle s'exécute aussi une fois par jour. Voyez d'abord ce qu'elle ferait, puis lancez-la.","consolidate.dry_run":"Voir ce qu'elle ferait","consolidate.run":"Lancer maintenant","consolidate.plan_title":"Ce qu'elle ferait","consolidate.done_title":"Terminé","consolidate.nothing":"Rien à faire.","consolidate.merged":"Fusionnés","consolidate.superseded":"Remplacés","consolidate.pruned":"Suppositions supprimées","consolidate.judged":"Tranchés par la tâche IA","consolidate.conflicts":"Conflits possibles","consolidate.changes_title":"Modifications","consolidate.would_merge":"Fusionner","consolidate.would_supersede":"Remplacer","consolidate.prune_title":"Suppositions à supprimer","consolidate.conflicts_title":"Conflits possibles laissés à une personne","consolidate.similarity":"similarité {value}","transfer.export_title":"Export","transfer.export_help":"Télécharge tous les souvenirs avec leur historique et leur provenance dans un fichier JSON lisible. Les souvenirs oubliés n'apparaissent que sous forme de nombres.","transfer.export":"Télécharger l'export","transfer.exported":"Souvenirs exportés : {n} ({file})","transfer.import_title":"Import","transfer.import_help":"Lit un fichier d'export. Chaque souvenir est vérifié comme un nouveau ; les doublons sont ignorés et rien n'est écrasé.","transfer.choose_file":"Fichier d'export (JSON)","transfer.invalid_json":"{file} n'est pas un fichier JSON.","transfer.importing":"Importation : {done} sur {total}","transfer.created":"Importés : {n}","transfer.duplicates":"Déjà connus : {n}","transfer.rejected":"Refusés : {n}","transfer.rejected_item":"Souvenir {index} : {reason}","transfer.reason.conflict":"une autre valeur de ce fait est déjà enregistrée ici ; rien n'a été écrasé","transfer.reason.forgotten":"il a été oublié ici et le reste","transfer.reason.sensitive_content":"appris automatiquement, mais il contient un code ou une donnée de paiement ou de santé","transfer.reason.other":"refusé : un champ manque, n'est pas valide ou est inconnu ici","settings.title":"Apprentissage","settings.help":"Les mêmes options que dans la boîte de dialogue des options de l'intégration.","settings.learning":"Apprendre des conversations","settings.learning_help":"L'assistant mémoire apprend seul des souvenirs à partir des conversations. Les transcriptions des conversations sont enregistrées dans tous les cas.","settings.opt_out":"Pièces exclues","settings.opt_out_help":"Les conversations dans ces pièces ne servent jamais à apprendre.","settings.no_areas":"Aucune zone n'est configurée.","settings.review":"Vérifier les souvenirs appris avant usage","settings.review_help":"Les souvenirs appris attendent ici et ne sont jamais rappelés avant d'être approuvés ou rejetés.","settings.cloud":"Autoriser les souvenirs personnels vers un modèle cloud","settings.cloud_help":"Désactivé : les conversations d'une personne reconnue ne sont jamais envoyées à une tâche IA cloud. Les mots sensibles ne sont jamais envoyés, quel que soit ce réglage.","settings.retention":"Conservation des transcriptions (jours)","settings.retention_help":"Les transcriptions enregistrées plus anciennes sont supprimées une fois par jour ({min} à {max}).","settings.retention_invalid":"{field} : saisissez un nombre entier de jours entre {min} et {max}.","settings.reset":"Annuler les modifications","settings.saved":"Enregistré.","voice.title":"Voix","voice.help":"Les membres du foyer dont la voix est enregistrée sont reconnus aux satellites vocaux, pour que leurs souvenirs privés fonctionnent à la voix. Une commodité, pas une authentification. Les empreintes vocales restent dans la mémoire ; les enregistrements ne sont jamais conservés.","voice.off":"La reconnaissance vocale est désactivée dans les options de Household Memory : aucune voix ne peut être enregistrée.","voice.no_persons":"Aucune personne pour l'instant : ajoute les membres du foyer comme personnes dans les paramètres de Home Assistant.","voice.state":"Voix","voice.enrolled":"Enregistrée à partir de {n} extraits, {time}","voice.not_enrolled":"Non enregistrée","voice.enrol":"Enregistrer","voice.re_enrol":"Enregistrer à nouveau","voice.forget":"Oublier la voix","voice.forget_confirm":"Oublier la voix de {person} ? Cette personne n'est plus reconnue à la voix jusqu'à un nouvel enregistrement ; ses souvenirs restent.","voice.forgotten":"La voix de {person} est oubliée.","voice.nothing_to_forget":"{person} n'avait pas de voix enregistrée.","voice.enrolled_done":"La voix de {person} est enregistrée à partir de {n} extraits.","voice.enrol_title":"Enregistrer la voix de {person}","voice.source":"Extraits depuis","voice.source_record":"Enregistrements ici ou fichiers WAV","voice.source_satellite":"Ce qu'un satellite a entendu en dernier","voice.record_help":"Fais lire à voix haute quelques phrases à la personne, d'une voix normale, seule dans une pièce calme, une phrase entière par extrait : au moins {min} extraits d'environ 2 à 10 secondes chacun (au plus {max} secondes) ; une commande courte est trop courte. Un nouvel enregistrement remplace l'ancienne voix.","voice.record":"Enregistrer un extrait","voice.stop":"Arrêter","voice.recording":"Enregistrement : {s} s sur {max} s au plus","voice.level":"Niveau du micro","voice.no_mic":"Le micro n'est utilisable que si Home Assistant est ouvert en HTTPS (ou sur cet ordinateur). Envoie plutôt des fichiers WAV.","voice.mic_refused":"Le micro n'a pas pu être ouvert : autorise cette page à l'utiliser, ou envoie des fichiers WAV.","voice.upload":"Ou envoyer des fichiers WAV","voice.file_unreadable":"{file} ne peut pas être lu comme de l'audio.","voice.file_too_long":"{file} dure plus de {max} secondes ; utilise un extrait plus court.","voice.too_many":"Au plus {max} extraits forment une empreinte vocale ; supprimes-en quelques-uns.","voice.too_much_audio":"Les extraits durent ensemble plus de {max} secondes ; supprimes-en quelques-uns.","voice.clip_name":"Extrait {n}","voice.seconds":"{s} s","voice.discard":"Supprimer","voice.clip_ok":"Utilisable","voice.speech":"Parole","voice.level_label":"Niveau","voice.level_value":"{level} dBFS (crête {peak} dBFS)","voice.clipping":"Échantillons saturés","voice.snr":"Rapport signal sur bruit","voice.snr_value":"{db} dB","voice.same":"Même voix que les autres extraits","voice.same_yes":"Oui ({score})","voice.same_no":"Non ({score})","voice.same_unknown":"Non comparé : aucun autre extrait utilisable","voice.problem.no_speech":"Refusé : aucune parole entendue ; parle près du microphone et vérifie qu'il enregistre","voice.problem.too_short":"Refusé : trop peu de parole ; dis une phrase entière d'environ 2 à 10 secondes","voice.problem.noisy":"Refusé : trop de bruit ; enregistre dans une pièce calme (sans télévision, musique, ventilateur ni conversation)","voice.problem.two_voices":"Refusé : plus d'une voix ; enregistre la personne seule","voice.problem.other_voice":"Refusé : une voix différente de celle des autres extraits ; enregistre-le à nouveau avec la même personne","voice.warning.quiet":"Faible : parle plus près ou augmente le gain du micro","voice.warning.clipping":"Trop fort : baisse le gain du micro","voice.assess":"Vérifier les énoncés","voice.assessing":"Vérification des extraits…","voice.expected":"Reconnaissance attendue","voice.expected_sentence":"Une phrase dans une pièce calme","voice.expected_command":"Une commande courte","voice.expected_noisy":"Une phrase avec du bruit autour","voice.expected_help":"Une estimation à partir de ces seuls extraits : la part des énoncés de cette personne où sa voix devrait être reconnue.","voice.other_person":"Ces extraits ressemblent à la voix enregistrée de {person} : personne ne peut enregistrer la voix de quelqu'un d'autre.","voice.not_ready":"Pas encore prêt : chaque extrait doit être utilisable, et il en faut au moins {min}.","voice.enrol_submit":"Enregistrer cette voix","voice.satellite_help":"Les derniers énoncés entendus par un satellite vocal ces 15 dernières minutes. Ne les utilise que si tu sais que cette personne les a tous prononcés.","voice.satellite":"Satellite","voice.satellite_option":"{name} ({n} énoncés)","voice.utterances":"Derniers énoncés à utiliser","voice.no_satellite":"Aucun satellite n'a rien entendu ces 15 dernières minutes. Fais parler la personne à un satellite, puis actualise.","voice.recent_title":"Reconnaissances récentes","voice.recent_help":"Qui a dit les {n} derniers énoncés à chaque satellite, et avec quelle certitude : le score de la voix la plus proche face au seuil qu'exigeait cet énoncé, la parole entendue et son niveau au-dessus du bruit de la pièce, et si c'était assez sûr pour des demandes comme « oublie tout sur moi » (strict). Gardé en mémoire seulement depuis le démarrage de Home Assistant ; ni audio ni mots.","voice.recent_none":"Aucun satellite n'a rien entendu depuis le démarrage de Home Assistant.","voice.col_time":"Heure","voice.col_who":"Reconnu","voice.col_score":"Score (seuil)","voice.col_snr":"Niveau au-dessus du bruit","voice.col_strict":"Strict","voice.unknown":"Inconnu","voice.recognised_by":"{person}, par {by}","voice.by.voice":"la voix","voice.by.tag":"l'étiquette « {name} » du moteur de reconnaissance vocale","voice.by.speaker_id":"le locuteur « {name} » du moteur de reconnaissance vocale","voice.named_other":"Inconnu : le moteur de reconnaissance vocale a indiqué « {name} », la voix ressemblait à {person}","voice.named_nobody":"Inconnu : le moteur de reconnaissance vocale a indiqué « {name} », qui n'est personne ici","voice.score_value":"{score} ({threshold})"};var St={"panel.title":"Memoria","panel.menu":"Apri la barra laterale","panel.sections":"Sezioni del pannello Memoria","tab.overview":"Panoramica","tab.list":"Ricordi","tab.search":"Ricerca","tab.pending":"Da rivedere","tab.forget":"Dimentica","tab.consolidate":"Consolida","tab.transfer":"Esporta e importa","tab.settings":"Apprendimento","tab.voice":"Voci","common.back":"Indietro","common.cancel":"Annulla","common.loading":"Caricamento…","common.refresh":"Aggiorna","common.save":"Salva","common.yes":"Sì","common.no":"No","kind.fact":"Fatto","kind.preference":"Preferenza","kind.episode":"Episodio","kind.procedure":"Procedura","kind.note":"Nota","scope.private":"Privato","scope.room":"Stanza","scope.shared":"Famiglia","scope.system":"Sistema","scope.private_of":"Privato di {person}","scope.room_of":"Stanza: {room}","provenance.confirmed":"Confermato","provenance.observed":"Osservato","provenance.extracted":"Appreso da una conversazione","provenance.inferred":"Supposto","status.active":"Attuale","status.pending":"In attesa di revisione","status.superseded":"Sostituito","status.archived":"Unito","source.voice":"Voce","source.service":"Azione","source.extraction":"Apprendimento","source.automation":"Automazione","source.admin":"Amministratore","store.sqlite":"SQLite","store.postgresql":"PostgreSQL","factor.similarity":"Significato","factor.lexical":"Parole in comune","factor.provenance":"Provenienza","factor.importance":"Importanza","factor.recency":"Recenza","factor.translation":"Parole in comune in un'altra lingua","factor.named":"Nomina una persona","factor.about_speaker":"Riguarda chi parla","factor.context":"Contesto della conversazione","factor.conversation":"Stessa conversazione","factor.newer":"Valore più recente","said_by.person_room":"Detto da {person} in {room}, {time}","said_by.person":"Detto da {person}, {time}","said_by.unknown_room":"Detto da un interlocutore sconosciuto in {room}, {time}","said_by.unknown":"Detto da un interlocutore sconosciuto, {time}","memory.open":"Apri","memory.sensitive":"Sensibile","field.content":"Testo","field.kind":"Tipo","field.scope":"Chi può sentirlo","field.owner":"Proprietario","field.person":"Persona","field.area":"Area","field.provenance":"Provenienza","field.status":"Stato","field.language":"Lingua","field.said_by":"Detto da","field.sensitive":"Sensibile","field.importance":"Importanza","field.confidence":"Affidabilità","field.fact":"Fatto","field.source":"Origine","field.created":"Salvato","field.updated":"Ultima modifica","field.valid":"Valido","field.id":"ID","filter.any":"Tutti","filter.person":"Persona (proprietario o interlocutore)","filter.language_hint":"es. it","page.previous":"Precedente","page.next":"Successiva","page.range":"{first}–{last} di {total}","page.size":"Per pagina","overview.pending":"In attesa di revisione","overview.tombstones":"Lapidi","overview.review":"Rivedi ora","overview.by_scope":"Ricordi per chi può sentirli","overview.by_provenance":"Ricordi per provenienza","overview.by_status":"Ricordi per stato","overview.none":"Ancora nessuno.","overview.last_consolidation":"Ultima consolidazione","overview.never":"Mai","overview.store":"Archivio","overview.encoder":"Encoder","overview.dimension":"{n} dimensioni","list.title":"Ricordi","list.filters":"Filtri","list.empty":"Nessun ricordo corrisponde a questi filtri.","search.title":"Cerca come interlocutore","search.help":"Mostra cosa richiamerebbe l'assistente per questa persona in questa stanza, e perché emerge ogni ricordo.","search.query":"Domanda o parole","search.as_person":"Interlocutore","search.unknown_speaker":"Interlocutore sconosciuto","search.in_area":"Stanza","search.no_area":"Nessuna stanza","search.limit":"Risultati","search.submit":"Cerca","search.empty":"Niente di ciò che questo interlocutore sentirebbe corrisponde.","search.score":"Punteggio {score} · somiglianza {similarity}","search.why":"Perché emerge","search.outdated":"Un valore più recente ha sostituito questo.","search.open_newer":"Apri il valore più recente","search.withheld_title":"Tenuti nascosti a chi parla","search.withheld_help":"Trovati, ma riservati: l'assistente non li direbbe a chi parla (chi è sconosciuto non sente codici né dati di pagamento o di salute).","search.withheld_mark":"Nascosto: non detto a chi parla","detail.title":"Ricordo","detail.said_by":"Chi l'ha detto","detail.edit":"Modifica","detail.edit_help":"Un testo modificato viene controllato come un nuovo ricordo: i segreti vengono rifiutati.","detail.choose":"Scegli…","detail.saved":"Salvato.","detail.forget":"Dimentica","detail.forget_confirm":"Dimenticare «{content}»? Il testo viene cancellato e una lapide impedisce che venga appreso di nuovo.","detail.forgotten":"Dimenticato.","history.title":"Cronologia","history.single":"Questo ricordo non è mai cambiato.","history.window":"dal {from} al {to}","history.since":"dal {from}","pending.title":"In attesa di revisione","pending.help":"Appresi dalle conversazioni mentre la revisione prima dell'uso è attiva. I ricordi approvati vengono richiamati da quel momento; quelli rifiutati vengono dimenticati e non più appresi.","pending.empty":"Niente in attesa di revisione.","pending.replaces":"Sostituisce un fatto salvato:","pending.approve":"Approva","pending.reject":"Rifiuta","pending.approved":"Approvato.","pending.rejected":"Rifiutato e dimenticato.","forget.person_title":"Dimentica una persona","forget.person_help":"Dimentica tutti i ricordi privati della persona. I ricordi di stanza e della famiglia restano, senza più essere attribuiti a lei. Non si può annullare.","forget.person_submit":"Dimentica i ricordi della persona","forget.person_confirm":"Dimenticare tutti i ricordi privati di {person}? Non si può annullare.","forget.person_done":"Ricordi privati di {person} dimenticati: {n}","tombstones.title":"Lapidi","tombstones.help":"Una lapide impedisce che un ricordo dimenticato venga appreso di nuovo. Non contiene testo. Rimuoverla permette di apprenderlo di nuovo.","tombstones.empty":"Nessuna lapide.","tombstones.created":"Dimenticato il {time}","tombstones.lifted_at":"rimossa il {time}","tombstones.lift":"Rimuovi","tombstones.lifted":"Lapide rimossa.","consolidate.title":"Consolidazione","consolidate.help":"Mantiene un solo ricordo attuale per fatto: le riformulazioni vengono unite, i valori più vecchi diventano cronologia, le supposizioni mai usate vengono eliminate. Viene eseguita anche una volta al giorno. Prima guarda cosa farebbe, poi eseguila.","consolidate.dry_run":"Mostra cosa farebbe","consolidate.run":"Esegui ora","consolidate.plan_title":"Cosa farebbe","consolidate.done_title":"Fatto","consolidate.nothing":"Niente da fare.","consolidate.merged":"Uniti","consolidate.superseded":"Sostituiti","consolidate.pruned":"Supposizioni eliminate","consolidate.judged":"Decisi dall'AI Task","consolidate.conflicts":"Possibili conflitti","consolidate.changes_title":"Modifiche","consolidate.would_merge":"Unisci","consolidate.would_supersede":"Sostituisci","consolidate.prune_title":"Supposizioni da eliminare","consolidate.conflicts_title":"Possibili conflitti lasciati a una persona","consolidate.similarity":"somiglianza {value}","transfer.export_title":"Esporta","transfer.export_help":"Scarica tutti i ricordi con cronologia e provenienza in un file JSON leggibile. I ricordi dimenticati compaiono solo come conteggi.","transfer.export":"Scarica l'esportazione","transfer.exported":"Ricordi esportati: {n} ({file})","transfer.import_title":"Importa","transfer.import_help":"Legge un file di esportazione. Ogni ricordo viene controllato come uno nuovo; i doppioni vengono saltati e nulla viene sovrascritto.","transfer.choose_file":"File di esportazione (JSON)","transfer.invalid_json":"{file} non è un file JSON.","transfer.importing":"Importazione: {done} di {total}","transfer.created":"Importati: {n}","transfer.duplicates":"Già noti: {n}","transfer.rejected":"Rifiutati: {n}","transfer.rejected_item":"Ricordo {index}: {reason}","transfer.reason.conflict":"qui è già salvato un altro valore di questo fatto; nulla è stato sovrascritto","transfer.reason.forgotten":"qui è stato dimenticato e resta dimenticato","transfer.reason.sensitive_content":"appreso automaticamente, ma contiene un codice o un dato di pagamento o di salute","transfer.reason.other":"non accettato: un campo manca, non è valido o qui è sconosciuto","settings.title":"Apprendimento","settings.help":"Le stesse opzioni della finestra delle opzioni dell'integrazione.","settings.learning":"Impara dalle conversazioni","settings.learning_help":"L'assistente memoria impara da solo i ricordi dalle conversazioni. Le trascrizioni delle conversazioni vengono salvate comunque.","settings.opt_out":"Aree escluse","settings.opt_out_help":"Dalle conversazioni in queste aree non si impara mai.","settings.no_areas":"Nessuna area configurata.","settings.review":"Rivedi i ricordi appresi prima dell'uso","settings.review_help":"I ricordi appresi attendono qui e non vengono mai richiamati finché non sono approvati o rifiutati.","settings.cloud":"Consenti ricordi personali a un modello cloud","settings.cloud_help":"Disattivato: le conversazioni di una persona riconosciuta non vanno mai a un AI Task cloud. Le parole sensibili non vengono mai inviate, qualunque sia questa impostazione.","settings.retention":"Conservazione delle trascrizioni (giorni)","settings.retention_help":"Le trascrizioni salvate più vecchie di così vengono eliminate una volta al giorno (da {min} a {max}).","settings.retention_invalid":"{field}: inserisci un numero intero di giorni tra {min} e {max}.","settings.reset":"Annulla le modifiche","settings.saved":"Salvato.","voice.title":"Voci","voice.help":"I membri della casa con la voce registrata vengono riconosciuti ai satelliti vocali, così i loro ricordi privati funzionano anche a voce. Una comodità, non un'autenticazione. Le impronte vocali restano nell'archivio dei ricordi; le registrazioni non vengono mai conservate.","voice.off":"Il riconoscimento vocale è disattivato nelle opzioni di Household Memory: non si può registrare nessuna voce.","voice.no_persons":"Ancora nessuna persona: aggiungi i membri della casa come persone nelle impostazioni di Home Assistant.","voice.state":"Voce","voice.enrolled":"Registrata da {n} clip, {time}","voice.not_enrolled":"Non registrata","voice.enrol":"Registra","voice.re_enrol":"Registra di nuovo","voice.forget":"Dimentica la voce","voice.forget_confirm":"Dimenticare la voce di {person}? Non verrà più riconosciuta dalla voce finché non sarà registrata di nuovo; i suoi ricordi restano.","voice.forgotten":"La voce di {person} è stata dimenticata.","voice.nothing_to_forget":"{person} non aveva una voce registrata.","voice.enrolled_done":"La voce di {person} è registrata da {n} clip.","voice.enrol_title":"Registra la voce di {person}","voice.source":"Clip da","voice.source_record":"Registrazioni qui o file WAV","voice.source_satellite":"Ciò che un satellite ha sentito per ultimo","voice.record_help":"Fai leggere ad alta voce alla persona alcune frasi con voce normale, da sola in una stanza silenziosa, una frase intera per clip: almeno {min} clip da circa 2 a 10 secondi ciascuna (al massimo {max} secondi); un comando breve è troppo corto. Registrare di nuovo sostituisce la voce precedente.","voice.record":"Registra una clip","voice.stop":"Ferma","voice.recording":"Registrazione: {s} s su un massimo di {max} s","voice.level":"Livello del microfono","voice.no_mic":"Il microfono si può usare solo se Home Assistant è aperto via HTTPS (o su questo computer). Carica invece file WAV.","voice.mic_refused":"Non è stato possibile aprire il microfono: consenti a questa pagina di usarlo, oppure carica file WAV.","voice.upload":"Oppure carica file WAV","voice.file_unreadable":"{file} non può essere letto come audio.","voice.file_too_long":"{file} dura più di {max} secondi; usa una clip più breve.","voice.too_many":"Al massimo {max} clip formano un'impronta vocale; scartane alcune.","voice.too_much_audio":"Le clip contengono insieme più di {max} secondi di audio; scartane alcune.","voice.clip_name":"Clip {n}","voice.seconds":"{s} s","voice.discard":"Scarta","voice.clip_ok":"Utilizzabile","voice.speech":"Parlato","voice.level_label":"Livello","voice.level_value":"{level} dBFS (picco {peak} dBFS)","voice.clipping":"Campioni saturati","voice.snr":"Rapporto segnale/rumore","voice.snr_value":"{db} dB","voice.same":"Stessa voce delle altre clip","voice.same_yes":"Sì ({score})","voice.same_no":"No ({score})","voice.same_unknown":"Non confrontata: nessun'altra clip utilizzabile","voice.problem.no_speech":"Rifiutata: nessun parlato sentito; parla vicino al microfono e controlla che registri","voice.problem.too_short":"Rifiutata: troppo poco parlato; pronuncia una frase intera di circa 2-10 secondi","voice.problem.noisy":"Rifiutata: troppo rumore; registra in una stanza silenziosa (senza TV, musica, ventilatore o conversazioni)","voice.problem.two_voices":"Rifiutata: più di una voce; registra la persona da sola","voice.problem.other_voice":"Rifiutata: una voce diversa da quella delle altre clip; registrala di nuovo con la stessa persona","voice.warning.quiet":"Debole: parla più vicino o alza il guadagno del microfono","voice.warning.clipping":"Troppo forte: abbassa il guadagno del microfono","voice.assess":"Controlla le frasi","voice.assessing":"Controllo delle clip…","voice.expected":"Riconoscimento previsto","voice.expected_sentence":"Una frase in una stanza silenziosa","voice.expected_command":"Un comando breve","voice.expected_noisy":"Una frase con rumore intorno","voice.expected_help":"Una stima basata solo su queste clip: la quota delle frasi di questa persona in cui la sua voce dovrebbe essere riconosciuta.","voice.other_person":"Queste clip sembrano la voce registrata di {person}: nessuno può registrare la voce di un altro.","voice.not_ready":"Non ancora pronto: ogni clip deve essere utilizzabile, e ne servono almeno {min}.","voice.enrol_submit":"Registra questa voce","voice.satellite_help":"Le ultime frasi sentite da un satellite vocale negli ultimi 15 minuti. Usale solo se sai che le ha dette tutte questa persona.","voice.satellite":"Satellite","voice.satellite_option":"{name} ({n} frasi)","voice.utterances":"Ultime frasi da usare","voice.no_satellite":"Nessun satellite ha sentito qualcosa negli ultimi 15 minuti. Fai parlare la persona con un satellite, poi aggiorna.","voice.recent_title":"Riconoscimenti recenti","voice.recent_help":"Chi ha detto le ultime {n} frasi a ogni satellite e con quanta sicurezza: il punteggio della voce più simile rispetto alla soglia richiesta da quella frase, il parlato sentito e il suo livello sopra il rumore della stanza, e se bastava per richieste come «dimentica tutto di me» (rigoroso). Solo in memoria dall'avvio di Home Assistant; niente audio né parole.","voice.recent_none":"Nessun satellite ha sentito nulla dall'avvio di Home Assistant.","voice.col_time":"Ora","voice.col_who":"Riconosciuto","voice.col_score":"Punteggio (soglia)","voice.col_snr":"Livello sopra il rumore","voice.col_strict":"Rigoroso","voice.unknown":"Sconosciuto","voice.recognised_by":"{person}, da {by}","voice.by.voice":"la voce","voice.by.tag":"l'etichetta «{name}» del motore di riconoscimento vocale","voice.by.speaker_id":"il parlante «{name}» del motore di riconoscimento vocale","voice.named_other":"Sconosciuto: il motore di riconoscimento vocale ha indicato «{name}», la voce sembrava di {person}","voice.named_nobody":"Sconosciuto: il motore di riconoscimento vocale ha indicato «{name}», che qui non è nessuno","voice.score_value":"{score} ({threshold})"};var Te={de:xt,en:ze,es:$t,fr:wt,it:St};function Me(s){let i=(s??"en").toLowerCase();if(i in Te)return i;let e=i.split("-")[0];return e in Te?e:"en"}function At(s){let i=Te[Me(s)];return(e,t)=>{let o=i[e]??ze[e]??e;return t?o.replace(/\{(\w+)\}/g,(n,r)=>r in t?String(t[r]):n):o}}function kt(s,i){let e=Me(s.language),t=s.language||e,o=new Intl.DateTimeFormat(t,{dateStyle:"medium",timeStyle:"short"}),n=_t(s),r=At(s.language);return{hass:s,api:new ce(s),t:r,label:(c,l)=>{let p=`${c}.${l}`,h=r(p);return h===p?l:h},language:e,persons:n,areas:i,time:c=>{if(!c)return"";let l=new Date(c);return Number.isNaN(l.getTime())?c:o.format(l)},number:(c,l=2)=>new Intl.NumberFormat(t,{minimumFractionDigits:l,maximumFractionDigits:l}).format(c),personName:c=>c?n.find(l=>l.id===c)?.name??c:"",areaName:c=>c?i.find(l=>l.area_id===c)?.name??c:""}}function q(s,i){s.dispatchEvent(new CustomEvent("memory-open",{detail:{id:i},bubbles:!0,composed:!0}))}function de(s,i){s.dispatchEvent(new CustomEvent("memory-navigate",{detail:{view:i},bubbles:!0,composed:!0}))}var b=class extends x{constructor(){super(...arguments);this.error="";this.busy=!1;this.started=!1}static{this.styles=$}static{this.properties={ctx:{attribute:!1},error:{state:!0},busy:{state:!0}}}start(){}willUpdate(e){super.willUpdate(e),!this.started&&this.ctx&&(this.started=!0,this.start())}async run(e){this.busy=!0,this.error="";try{return await e()}catch(t){this.error=await yt(this.ctx?.hass,t);return}finally{this.busy=!1}}renderError(){return this.error?a`<div class="error" role="alert" data-testid="error">${this.error}</div>`:d}};function f(s,i,e,t,o){return a`<label class="field" for=${s}
    >${i}
    <select
      id=${s}
      data-testid=${s}
      .value=${e}
      @change=${n=>o(n.target.value)}
    >
      ${t.map(n=>a`<option value=${n.value} ?selected=${n.value===e}>${n.label}</option>`)}
    </select></label
  >`}function P(s,i,e,t){let o=e.map(n=>({value:n,label:s.label(i,n)}));return t===void 0?o:[{value:"",label:t},...o]}function E(s,i){let e=s.persons.map(t=>({value:t.id,label:t.name}));return i===void 0?e:[{value:"",label:i},...e]}function I(s,i){let e=s.areas.map(t=>({value:t.area_id,label:t.name}));return i===void 0?e:[{value:"",label:i},...e]}function j(s,i){let e=i.person_name||s.personName(i.person_id),t=i.area_name||s.areaName(i.area_id),o=`said_by.${e?"person":"unknown"}${t?"_room":""}`;return a`<div
    class="said-by"
    data-testid="said-by"
    data-person=${i.person_id??""}
    data-area=${i.area_id??""}
  >
    ${s.t(o,{person:e,room:t,time:s.time(i.at)})}
  </div>`}function Le(s,i){let e=s.t,t=i.scope==="private"&&i.owner_id?e("scope.private_of",{person:s.personName(i.owner_id)}):i.scope==="room"&&i.area_id?e("scope.room_of",{room:s.areaName(i.area_id)}):s.label("scope",i.scope);return a`<div class="chips">
    <span class="chip" data-testid="chip-kind">${s.label("kind",i.kind)}</span>
    <span class="chip" data-testid="chip-scope">${t}</span>
    <span class="chip" data-testid="chip-provenance">${s.label("provenance",i.provenance)}</span>
    <span class="chip ${i.status==="active"?"":"warn"}" data-testid="chip-status">${s.label("status",i.status)}</span>
    <span class="chip" data-testid="chip-language">${i.language}</span>
    ${i.sensitive?a`<span class="chip warn" data-testid="chip-sensitive">${e("memory.sensitive")}</span>`:d}
  </div>`}function O(s,i,e,t=d,o="memory-item"){return a`<li class="card" data-testid=${o} data-memory-id=${e.id}>
    <div class="content" data-testid="memory-content">${e.content}</div>
    ${Le(s,e)} ${j(s,e.said_by)}
    <div class="actions">
      <button data-testid="open-memory" @click=${()=>q(i,e.id)}>${s.t("memory.open")}</button>
    </div>
    ${t}
  </li>`}function Z(s,i,e,t,o,n){let r=o===0?0:e+1,c=Math.min(e+t,o);return a`<div class="row pager">
    <button data-testid="${i}-prev" ?disabled=${e<=0} @click=${()=>n(Math.max(0,e-t))}>
      ${s.t("page.previous")}
    </button>
    <span data-testid="${i}-range" aria-live="polite">${s.t("page.range",{first:r,last:c,total:o})}</span>
    <button data-testid="${i}-next" ?disabled=${c>=o} @click=${()=>n(e+t)}>
      ${s.t("page.next")}
    </button>
  </div>`}var Ne=class extends b{static{this.properties={plan:{state:!0},done:{state:!0}}}async dryRun(){this.done=void 0;let i=await this.run(()=>this.ctx.api.consolidate(!0));i&&(this.plan=i)}async runNow(){let i=await this.run(()=>this.ctx.api.consolidate(!1));i&&(this.done=i,this.plan=void 0,this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})))}link(i){return a`<button class="link" @click=${()=>q(this,i.id)}>${i.content??i.id}</button>`}renderCounts(i){let e=this.ctx.t,t=(o,n)=>a`<div class="count" data-testid="consolidate-${o}"><span class="n">${n}</span><span class="label">${e(`consolidate.${o}`)}</span></div>`;return a`<div class="counts">
      ${t("merged",i.merged)} ${t("superseded",i.superseded)} ${t("pruned",i.pruned)}
      ${i.judged!==void 0?t("judged",i.judged):d} ${t("conflicts",i.conflicts.length)}
    </div>`}renderConflicts(i){let e=this.ctx;return i.conflicts.length?a`<h3>${e.t("consolidate.conflicts_title")}</h3>
      <ul data-testid="consolidate-conflict-list">
        ${i.conflicts.map(t=>a`<li>
              ${this.link(t.older)} → ${this.link(t.newer)}
              <span class="muted">(${e.t("consolidate.similarity",{value:e.number(t.similarity)})})</span>
            </li>`)}
      </ul>`:d}renderPlan(i){let t=this.ctx.t,o=i.changes??[],n=i.prune??[];return a`<div class="card" data-testid="consolidate-plan">
      <h2>${t("consolidate.plan_title")}</h2>
      ${this.renderCounts(i)}
      ${o.length===0&&n.length===0&&i.conflicts.length===0?a`<p class="muted" data-testid="consolidate-nothing">${t("consolidate.nothing")}</p>`:d}
      ${o.length?a`<h3>${t("consolidate.changes_title")}</h3>
            <ul data-testid="consolidate-changes">
              ${o.map(r=>a`<li data-memory-id=${r.id}>
                    ${t(r.status==="archived"?"consolidate.would_merge":"consolidate.would_supersede")}:
                    ${this.link(r)} → ${this.link(r.by)}
                  </li>`)}
            </ul>`:d}
      ${n.length?a`<h3>${t("consolidate.prune_title")}</h3>
            <ul data-testid="consolidate-prune">
              ${n.map(r=>a`<li>${this.link({id:r,content:null})}</li>`)}
            </ul>`:d}
      ${this.renderConflicts(i)}
      <div class="actions">
        <button class="primary" data-testid="consolidate-run" ?disabled=${this.busy} @click=${()=>this.runNow()}>
          ${t("consolidate.run")}
        </button>
      </div>
    </div>`}render(){let i=this.ctx;if(!i)return d;let e=i.t;return a`<div class="card">
        <h2>${e("consolidate.title")}</h2>
        <p class="help">${e("consolidate.help")}</p>
        <div class="actions">
          <button data-testid="consolidate-dry-run" ?disabled=${this.busy} @click=${()=>this.dryRun()}>
            ${e("consolidate.dry_run")}
          </button>
        </div>
      </div>
      ${this.renderError()} ${this.plan?this.renderPlan(this.plan):d}
      ${this.done?a`<div class="card" data-testid="consolidate-done">
            <h2>${e("consolidate.done_title")}</h2>
            ${this.renderCounts(this.done)} ${this.renderConflicts(this.done)}
          </div>`:d}`}};g("hm-consolidate",Ne);var pe={ATTRIBUTE:1,CHILD:2,PROPERTY:3,BOOLEAN_ATTRIBUTE:4,EVENT:5,ELEMENT:6},ue=s=>(...i)=>({_$litDirective$:s,values:i}),H=class{constructor(i){}get _$AU(){return this._$AM._$AU}_$AT(i,e,t){this._$Ct=i,this._$AM=e,this._$Ci=t}_$AS(i,e){return this.update(i,e)}update(i,e){return this.render(...e)}};var{I:ni}=mt,Et=s=>s;var Pt=()=>document.createComment(""),U=(s,i,e)=>{let t=s._$AA.parentNode,o=i===void 0?s._$AB:i._$AA;if(e===void 0){let n=t.insertBefore(Pt(),o),r=t.insertBefore(Pt(),o);e=new ni(n,r,s,s.options)}else{let n=e._$AB.nextSibling,r=e._$AM,c=r!==s;if(c){let l;e._$AQ?.(s),e._$AM=s,e._$AP!==void 0&&(l=s._$AU)!==r._$AU&&e._$AP(l)}if(n!==o||c){let l=e._$AA;for(;l!==n;){let p=Et(l).nextSibling;Et(t).insertBefore(l,o),l=p}}}return e},R=(s,i,e=s)=>(s._$AI(i,e),s),si={},Rt=(s,i=si)=>s._$AH=i,Ct=s=>s._$AH,me=s=>{s._$AR(),s._$AA.remove()};var zt=(s,i,e)=>{let t=new Map;for(let o=i;o<=e;o++)t.set(s[o],o);return t},V=ue(class extends H{constructor(s){if(super(s),s.type!==pe.CHILD)throw Error("repeat() can only be used in text expressions")}dt(s,i,e){let t;e===void 0?e=i:i!==void 0&&(t=i);let o=[],n=[],r=0;for(let c of s)o[r]=t?t(c,r):r,n[r]=e(c,r),r++;return{values:n,keys:o}}render(s,i,e){return this.dt(s,i,e).values}update(s,[i,e,t]){let o=Ct(s),{values:n,keys:r}=this.dt(i,e,t);if(!Array.isArray(o))return this.ut=r,n;let c=this.ut??=[],l=[],p,h,u=0,v=o.length-1,m=0,_=n.length-1;for(;u<=v&&m<=_;)if(o[u]===null)u++;else if(o[v]===null)v--;else if(c[u]===r[m])l[m]=R(o[u],n[m]),u++,m++;else if(c[v]===r[_])l[_]=R(o[v],n[_]),v--,_--;else if(c[u]===r[_])l[_]=R(o[u],n[_]),U(s,l[_+1],o[u]),u++,_--;else if(c[v]===r[m])l[m]=R(o[v],n[m]),U(s,o[u],o[v]),v--,m++;else if(p===void 0&&(p=zt(r,m,_),h=zt(c,u,v)),p.has(c[u]))if(p.has(c[v])){let S=h.get(r[m]),ge=S!==void 0?o[S]:null;if(ge===null){let Je=U(s,o[u]);R(Je,n[m]),l[m]=Je}else l[m]=R(ge,n[m]),U(s,o[u],ge),o[S]=null;m++}else me(o[v]),v--;else me(o[u]),u++;for(;m<=_;){let S=U(s,l[_+1]);R(S,n[m]),l[m++]=S}for(;u<=v;){let S=o[u++];S!==null&&me(S)}return this.ut=r,Rt(s,l),w}});var Tt="important",ri=" !"+Tt,Mt=ue(class extends H{constructor(s){if(super(s),s.type!==pe.ATTRIBUTE||s.name!=="style"||s.strings?.length>2)throw Error("The `styleMap` directive must be used in the `style` attribute and must be the only part in the attribute.")}render(s){return Object.keys(s).reduce((i,e)=>{let t=s[e];return t==null?i:i+`${e=e.includes("-")?e:e.replace(/(?:^(webkit|moz|ms|o)|)(?=[A-Z])/g,"-$&").toLowerCase()}:${t};`},"")}update(s,[i]){let{style:e}=s.element;if(this.ft===void 0)return this.ft=new Set(Object.keys(i)),this.render(i);for(let t of this.ft)i[t]==null&&(this.ft.delete(t),t.includes("-")?e.removeProperty(t):e[t]=null);for(let t in i){let o=i[t];if(o!=null){this.ft.add(t);let n=typeof o=="string"&&o.endsWith(ri);t.includes("-")||n?e.setProperty(t,n?o.slice(0,-11):o,n?Tt:""):e[t]=o}}return w}});var Oe=1e3,qe=class extends b{constructor(){super(...arguments);this.query="";this.person="";this.area="";this.language="";this.limit=10;this.withheld=[]}static{this.styles=[$,y`
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
    `]}static{this.properties={query:{state:!0},person:{state:!0},area:{state:!0},language:{state:!0},limit:{state:!0},hits:{state:!0},withheld:{state:!0}}}async search(e){if(e?.preventDefault(),!this.query.trim())return;let t=this.ctx,o=await this.run(()=>t.api.search(this.query,this.person||void 0,this.area||void 0,this.language.trim()||void 0,this.limit));o&&(this.hits=o.hits,this.withheld=o.withheld??[])}factors(e){let t=this.ctx,o=Object.entries(e.factors).sort(([,r],[,c])=>Math.abs(c)-Math.abs(r)),n=Math.max(...o.map(([,r])=>Math.abs(r)),1e-9);return a`<table class="factors" data-testid="hit-factors">
      <caption class="help">${t.t("search.why")}</caption>
      ${o.map(([r,c])=>a`<tr data-testid="factor" data-factor=${r}>
            <th scope="row">${t.label("factor",r)}</th>
            <td class="value">${t.number(c)}</td>
            <td class="bar" aria-hidden="true">
              <span
                class=${c<0?"negative":""}
                style=${Mt({width:`${(Math.abs(c)/n*100).toFixed(1)}%`})}
              ></span>
            </td>
          </tr>`)}
    </table>`}renderHit(e){let t=this.ctx,o=t.t,n=a`<div class="score" data-testid="hit-score">
        ${o("search.score",{score:t.number(e.score),similarity:t.number(e.similarity)})}
      </div>
      ${e.outdated_by?a`<p class="help" data-testid="hit-outdated">
            ${o("search.outdated")}
            <button class="link" @click=${()=>q(this,e.outdated_by)}>${o("search.open_newer")}</button>
          </p>`:d}
      ${this.factors(e)}`;return O(t,this,e.memory,n,"search-hit")}renderWithheld(e){let t=this.ctx,o=a`<div class="withheld-mark" data-testid="withheld-mark">${t.t("search.withheld_mark")}</div>
      <div class="score" data-testid="hit-score">
        ${t.t("search.score",{score:t.number(e.score),similarity:t.number(e.similarity)})}
      </div>`;return O(t,this,e.memory,o,"search-withheld")}render(){let e=this.ctx;if(!e)return d;let t=e.t;return a`<form class="card" @submit=${o=>this.search(o)}>
        <h2>${t("search.title")}</h2>
        <p class="help">${t("search.help")}</p>
        <label class="field" for="search-query"
          >${t("search.query")}
          <input
            id="search-query"
            data-testid="search-query"
            type="search"
            required
            maxlength=${Oe}
            .value=${this.query}
            @input=${o=>this.query=o.target.value}
          />
        </label>
        <div class="grid spaced">
          ${f("search-person",t("search.as_person"),this.person,E(e,t("search.unknown_speaker")),o=>this.person=o)}
          ${f("search-area",t("search.in_area"),this.area,I(e,t("search.no_area")),o=>this.area=o)}
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
              @input=${o=>this.language=o.target.value}
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
              @change=${o=>this.limit=Math.min(20,Math.max(1,Number(o.target.value)||10))}
            />
          </label>
        </div>
        <div class="actions">
          <button class="primary" type="submit" data-testid="search-submit" ?disabled=${this.busy}>${t("search.submit")}</button>
        </div>
      </form>
      ${this.renderError()}
      ${this.hits===void 0?d:this.hits.length===0?a`<p class="muted" data-testid="search-empty">${t("search.empty")}</p>`:a`<ul class="plain" data-testid="search-hits">
              ${V(this.hits,o=>o.memory.id,o=>this.renderHit(o))}
            </ul>`}
      ${this.hits!==void 0&&this.withheld.length?a`<section class="withheld" data-testid="search-withheld-section" aria-labelledby="search-withheld-title">
            <h2 id="search-withheld-title">${t("search.withheld_title")}</h2>
            <p class="help">${t("search.withheld_help")}</p>
            <ul class="plain" data-testid="search-withheld-list">
              ${V(this.withheld,o=>o.memory.id,o=>this.renderWithheld(o))}
            </ul>
          </section>`:d}`}};g("hm-search",qe);var Ve=class extends b{constructor(){super(...arguments);this.memoryId="";this.notice="";this.gone=!1}static{this.styles=[$,y`
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
    `]}static{this.properties={memoryId:{attribute:!1},data:{state:!0},draft:{state:!0},notice:{state:!0},gone:{state:!0}}}start(){this.load(this.memoryId)}willUpdate(e){super.willUpdate(e),e.has("memoryId")&&e.get("memoryId")&&this.ctx&&(this.notice="",this.load(this.memoryId))}async load(e){this.draft=void 0,this.gone=!1;let t=await this.run(()=>this.ctx.api.get(e));t&&(this.data=t)}changed(){this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0}))}edit(e){this.notice="",this.draft={content:e.content,kind:e.kind,scope:e.scope,owner:e.owner_id??"",area:e.area_id??""}}async save(e){e.preventDefault();let t=this.data.memory,o=this.draft,n={};if(o.content!==t.content&&(n.content=o.content),o.kind!==t.kind&&(n.kind=o.kind),o.scope!==t.scope&&(n.scope=o.scope),o.scope==="private"&&o.owner&&o.owner!==t.owner_id&&(n.owner=o.owner),o.scope==="room"&&o.area&&o.area!==t.area_id&&(n.area=o.area),Object.keys(n).length===0){this.draft=void 0;return}let r=await this.run(()=>this.ctx.api.update(t.id,n));r&&(this.notice=this.ctx.t("detail.saved"),this.changed(),await this.load(r.memory.id))}async forget(){let e=this.ctx.t,t=this.data.memory;await this.renderRoot.querySelector("hm-confirm").ask(e("detail.forget_confirm",{content:t.content}),e("detail.forget"),e("common.cancel"))&&await this.run(()=>this.ctx.api.forget(t.id))&&(this.gone=!0,this.notice=e("detail.forgotten"),this.changed())}async review(e){let t=this.ctx,o=this.data.memory;if(e){let n=await this.run(()=>t.api.approve(o.id));n&&(this.notice=t.t("pending.approved"),this.changed(),await this.load(n.memory.id))}else await this.run(()=>t.api.reject(o.id))&&(this.gone=!0,this.notice=t.t("pending.rejected"),this.changed())}window(e){let t=this.ctx.t,o=this.ctx.time(e.valid_from??e.created_at);return e.valid_to?t("history.window",{from:o,to:this.ctx.time(e.valid_to)}):t("history.since",{from:o})}renderFields(e){let t=this.ctx,o=t.t,n=(r,c,l)=>c==null||c===""?d:a`<dt>${r}</dt>
            <dd data-testid=${l}>${c}</dd>`;return a`<dl class="fields">
      ${n(o("field.kind"),t.label("kind",e.kind),"field-kind")}
      ${n(o("field.scope"),t.label("scope",e.scope),"field-scope")}
      ${n(o("field.owner"),t.personName(e.owner_id),"field-owner")}
      ${n(o("field.area"),t.areaName(e.area_id),"field-area")}
      ${n(o("field.provenance"),t.label("provenance",e.provenance),"field-provenance")}
      ${n(o("field.status"),t.label("status",e.status),"field-status")}
      ${n(o("field.language"),e.language,"field-language")}
      ${n(o("field.sensitive"),e.sensitive?o("common.yes"):o("common.no"),"field-sensitive")}
      ${n(o("field.importance"),t.number(e.importance),"field-importance")}
      ${n(o("field.confidence"),t.number(e.confidence),"field-confidence")}
      ${n(o("field.fact"),[e.subject,e.predicate,e.value].filter(Boolean).join(" · "),"field-fact")}
      ${n(o("field.source"),t.label("source",e.source),"field-source")}
      ${n(o("field.created"),t.time(e.created_at),"field-created")}
      ${n(o("field.updated"),t.time(e.updated_at),"field-updated")}
      ${n(o("field.valid"),this.window(e),"field-valid")}
      ${n(o("field.id"),e.id,"field-id")}
    </dl>`}renderEdit(){let e=this.ctx,t=e.t,o=this.draft,n=r=>this.draft={...o,...r};return a`<form class="card" data-testid="edit-form" @submit=${r=>this.save(r)}>
      <h3>${t("detail.edit")}</h3>
      <label class="field" for="edit-content"
        >${t("field.content")}
        <textarea
          id="edit-content"
          data-testid="edit-content"
          required
          maxlength=${Oe}
          .value=${o.content}
          @input=${r=>n({content:r.target.value})}
        ></textarea>
      </label>
      <p class="help">${t("detail.edit_help")}</p>
      <div class="grid">
        ${f("edit-kind",t("field.kind"),o.kind,P(e,"kind",le),r=>n({kind:r}))}
        ${f("edit-scope",t("field.scope"),o.scope,P(e,"scope",gt),r=>n({scope:r}))}
        ${o.scope==="private"?f("edit-owner",t("field.owner"),o.owner,E(e,t("detail.choose")),r=>n({owner:r})):d}
        ${o.scope==="room"?f("edit-area",t("field.area"),o.area,I(e,t("detail.choose")),r=>n({area:r})):d}
      </div>
      <div class="actions">
        <button class="primary" type="submit" data-testid="edit-save" ?disabled=${this.busy}>${t("common.save")}</button>
        <button type="button" data-testid="edit-cancel" @click=${()=>this.draft=void 0}>
          ${t("common.cancel")}
        </button>
      </div>
    </form>`}renderChain(){let e=this.ctx,t=e.t,{memory:o,older:n,newer:r}=this.data,c=(p,h)=>(h.valid_from??h.created_at).localeCompare(p.valid_from??p.created_at),l=[...[...r].sort(c),o,...[...n].sort(c)];return l.length===1?a`<p class="muted" data-testid="history-single">${t("history.single")}</p>`:a`<ol class="chain" data-testid="history">
      ${l.map(p=>a`<li
            class=${p.id===o.id?"this":""}
            data-testid="history-item"
            data-memory-id=${p.id}
            data-relation=${p.id===o.id?"this":r.includes(p)?"newer":"older"}
          >
            <div class="content">${p.content}</div>
            <div class="window" data-testid="history-window">${e.label("status",p.status)} · ${this.window(p)}</div>
            ${j(e,p.said_by)}
            ${p.id===o.id?d:a`<button class="link" data-testid="history-open" @click=${()=>q(this,p.id)}>
                  ${t("memory.open")}
                </button>`}
          </li>`)}
    </ol>`}render(){let e=this.ctx;if(!e)return d;let t=e.t,o=this.data?.memory;return a`<div class="row">
        <button data-testid="detail-back" @click=${()=>de(this,"back")}>← ${t("common.back")}</button>
      </div>
      <hm-confirm></hm-confirm>
      ${this.notice?a`<div class="notice" role="status" data-testid="notice">${this.notice}</div>`:d}
      ${this.renderError()}
      ${o&&!this.gone?a`<div class="card" data-testid="detail" data-memory-id=${o.id}>
              <h2>${t("detail.title")}</h2>
              <div class="content" data-testid="detail-content">${o.content}</div>
              ${Le(e,o)}
              <h3>${t("detail.said_by")}</h3>
              ${j(e,o.said_by)} ${this.renderFields(o)}
              <div class="actions">
                ${o.status==="pending"?a`<button class="primary" data-testid="detail-approve" ?disabled=${this.busy} @click=${()=>this.review(!0)}>
                        ${t("pending.approve")}
                      </button>
                      <button data-testid="detail-reject" ?disabled=${this.busy} @click=${()=>this.review(!1)}>
                        ${t("pending.reject")}
                      </button>`:d}
                <button data-testid="detail-edit" ?disabled=${this.busy||!!this.draft} @click=${()=>this.edit(o)}>
                  ${t("detail.edit")}
                </button>
                <button class="danger" data-testid="detail-forget" ?disabled=${this.busy} @click=${()=>this.forget()}>
                  ${t("detail.forget")}
                </button>
              </div>
            </div>
            ${this.draft?this.renderEdit():d}
            <div class="card">
              <h3>${t("history.title")}</h3>
              ${this.renderChain()}
            </div>`:this.busy?a`<p class="muted">${t("common.loading")}</p>`:d}`}};g("hm-detail",Ve);var Lt=50,De=class extends b{constructor(){super(...arguments);this.person="";this.notice="";this.total=0;this.offset=0}static{this.properties={person:{state:!0},notice:{state:!0},tombstones:{state:!0},total:{state:!0},offset:{state:!0}}}start(){this.load(0)}async load(e){let t=await this.run(()=>this.ctx.api.tombstones(e,Lt));t&&(this.tombstones=t.tombstones,this.total=t.total,this.offset=e)}async forgetPerson(){let e=this.ctx,t=e.t,o=e.personName(this.person);if(!await this.renderRoot.querySelector("hm-confirm").ask(t("forget.person_confirm",{person:o}),t("forget.person_submit"),t("common.cancel")))return;let r=await this.run(()=>e.api.forgetPerson(this.person));r&&(this.notice=t("forget.person_done",{n:r.forgotten,person:o}),this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})),await this.load(0))}async lift(e){await this.run(()=>this.ctx.api.liftTombstone(e.id))&&(this.notice=this.ctx.t("tombstones.lifted"),await this.load(this.offset))}whom(e){let t=this.ctx;return e.scope==="private"&&e.owner_id?t.t("scope.private_of",{person:t.personName(e.owner_id)}):e.scope==="room"&&e.area_id?t.t("scope.room_of",{room:t.areaName(e.area_id)}):t.label("scope",e.scope)}render(){let e=this.ctx;if(!e)return d;let t=e.t;return a`<hm-confirm></hm-confirm>
      ${this.notice?a`<div class="notice" role="status" data-testid="notice">${this.notice}</div>`:d}
      ${this.renderError()}
      <div class="card">
        <h2>${t("forget.person_title")}</h2>
        <p class="help">${t("forget.person_help")}</p>
        <div class="grid">
          ${f("forget-person",t("field.person"),this.person,E(e,t("detail.choose")),o=>this.person=o)}
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
        ${this.tombstones===void 0?d:this.tombstones.length===0?a`<p class="muted" data-testid="tombstones-empty">${t("tombstones.empty")}</p>`:a`${Z(e,"tombstones",this.offset,Lt,this.total,o=>this.load(o))}
                <ul class="plain" data-testid="tombstone-list">
                  ${this.tombstones.map(o=>a`<li class="card" data-testid="tombstone-item" data-tombstone-id=${o.id}>
                        <div>${this.whom(o)}</div>
                        <div class="said-by">
                          ${t("tombstones.created",{time:e.time(o.created_at)})}
                          ${o.lifted_at?a` · ${t("tombstones.lifted_at",{time:e.time(o.lifted_at)})}`:d}
                        </div>
                        ${o.lifted_at?d:a`<div class="actions">
                              <button data-testid="tombstone-lift" ?disabled=${this.busy} @click=${()=>this.lift(o)}>
                                ${t("tombstones.lift")}
                              </button>
                            </div>`}
                      </li>`)}
                </ul>`}
      </div>`}};g("hm-forget",De);var ai=[25,50,100,200],Ie=class extends b{constructor(){super(...arguments);this.filters={status:"active"};this.limit=50;this.request=0}static{this.properties={filters:{state:!0},page:{state:!0},limit:{state:!0}}}start(){this.load(0)}async load(e){let t={...this.filters,language:this.filters.language?.trim()},o=++this.request,n=await this.run(()=>this.ctx.api.list(t,e,this.limit));n&&o===this.request&&(this.page=n)}set(e,t){this.filters={...this.filters,[e]:t},this.load(0)}render(){let e=this.ctx;if(!e)return d;let t=e.t,o=this.filters,n=t("filter.any");return a`<div class="card">
        <h2>${t("list.title")}</h2>
        <div class="grid" role="group" aria-label=${t("list.filters")}>
          ${f("filter-kind",t("field.kind"),o.kind??"",P(e,"kind",le,n),r=>this.set("kind",r))}
          ${f("filter-scope",t("field.scope"),o.scope??"",P(e,"scope",vt,n),r=>this.set("scope",r))}
          ${f("filter-person",t("filter.person"),o.person??"",E(e,n),r=>this.set("person",r))}
          ${f("filter-area",t("field.area"),o.area??"",I(e,n),r=>this.set("area",r))}
          ${f("filter-provenance",t("field.provenance"),o.provenance??"",P(e,"provenance",ft,n),r=>this.set("provenance",r))}
          ${f("filter-status",t("field.status"),o.status??"active",[...P(e,"status",bt),{value:"any",label:n}],r=>this.set("status",r))}
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
              .value=${o.language??""}
              @change=${r=>this.set("language",r.target.value)}
            />
          </label>
          ${f("filter-said-by",t("field.said_by"),o.said_by??"",E(e,n),r=>this.set("said_by",r))}
          ${f("filter-limit",t("page.size"),String(this.limit),ai.map(r=>({value:String(r),label:String(r)})),r=>{this.limit=Number(r),this.load(0)})}
        </div>
      </div>
      ${this.renderError()}
      ${this.page?a`${Z(e,"list",this.page.offset,this.page.limit,this.page.total,r=>this.load(r))}
            ${this.page.memories.length===0?a`<p class="muted" data-testid="list-empty">${t("list.empty")}</p>`:a`<ul class="plain" data-testid="memory-list">
                  ${V(this.page.memories,r=>r.id,r=>O(e,this,r))}
                </ul>`}
            ${this.page.total>this.page.limit?Z(e,"list-bottom",this.page.offset,this.page.limit,this.page.total,r=>this.load(r)):d}`:this.busy?a`<p class="muted">${t("common.loading")}</p>`:d}`}};g("hm-list",Ie);var je=class extends b{static{this.properties={data:{state:!0}}}start(){this.load()}async load(){this.data=await this.run(()=>this.ctx.api.overview())??this.data}counts(i,e){let t=this.ctx.t,o=Object.entries(e).sort(([n],[r])=>n.localeCompare(r));return a`<div class="card">
      <h3>${t(`overview.by_${i}`)}</h3>
      ${o.length===0?a`<p class="muted">${t("overview.none")}</p>`:a`<div class="counts">
            ${o.map(([n,r])=>a`<div class="count" data-testid="overview-${i}-${n}">
                  <span class="n">${r}</span><span class="label">${this.ctx.label(i,n)}</span>
                </div>`)}
          </div>`}
    </div>`}render(){let i=this.ctx;if(!i)return d;let e=i.t,t=this.data;return a`${this.renderError()}
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
                  </button>`:d}
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
          </div>`:this.busy?a`<p class="muted">${e("common.loading")}</p>`:d}`}};g("hm-overview",je);var He=class extends b{constructor(){super(...arguments);this.notice=""}static{this.properties={items:{state:!0},notice:{state:!0}}}start(){this.load()}async load(){let e=await this.run(()=>this.ctx.api.pending());e&&(this.items=e.pending)}async decide(e,t){let o=this.ctx.api,n=e.memory.id;await this.run(()=>t?o.approve(n):o.reject(n))&&(this.notice=this.ctx.t(t?"pending.approved":"pending.rejected"),this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})),await this.load())}renderItem(e){let t=this.ctx,o=t.t,n=a`${e.replaces.length?a`<div class="replaces" data-testid="pending-replaces">
            <p class="help">${o("pending.replaces")}</p>
            <ul class="plain">
              ${e.replaces.map(r=>a`<li data-memory-id=${r.id}>
                    <del class="content" data-testid="replaced-value">${r.content}</del>
                    ${j(t,r.said_by)}
                  </li>`)}
            </ul>
          </div>`:d}
      <div class="actions">
        <button class="primary" data-testid="pending-approve" ?disabled=${this.busy} @click=${()=>this.decide(e,!0)}>
          ${o("pending.approve")}
        </button>
        <button data-testid="pending-reject" ?disabled=${this.busy} @click=${()=>this.decide(e,!1)}>
          ${o("pending.reject")}
        </button>
      </div>`;return O(t,this,e.memory,n,"pending-item")}render(){let e=this.ctx;if(!e)return d;let t=e.t;return a`<div class="card">
        <h2>${t("pending.title")}</h2>
        <p class="help">${t("pending.help")}</p>
      </div>
      ${this.notice?a`<div class="notice" role="status" data-testid="notice">${this.notice}</div>`:d}
      ${this.renderError()}
      ${this.items===void 0?this.busy?a`<p class="muted">${t("common.loading")}</p>`:d:this.items.length===0?a`<p class="muted" data-testid="pending-empty">${t("pending.empty")}</p>`:a`<ul class="plain" data-testid="pending-list">
              ${V(this.items,o=>o.memory.id,o=>this.renderItem(o))}
            </ul>`}`}};g("hm-pending",He);var C={min:1,max:3650},Ue=class extends b{constructor(){super(...arguments);this.notice="";this.retention=""}static{this.properties={saved:{state:!0},draft:{state:!0},notice:{state:!0},retention:{state:!0}}}start(){this.load()}async load(){let e=await this.run(()=>this.ctx.api.settings());e&&this.show(e)}show(e){this.saved=e,this.draft={...e,learning_opt_out_areas:[...e.learning_opt_out_areas]},this.retention=String(e.transcript_retention_days)}retentionDays(){let e=this.retention.trim();if(!/^\d+$/.test(e))return;let t=Number(e);return t>=C.min&&t<=C.max?t:void 0}typedRetention(e){this.retention=e;let t=this.retentionDays();t!==void 0&&this.set({transcript_retention_days:t})}changes(){let e={},t=this.draft,o=this.saved;for(let n of Object.keys(t)){let r=t[n],c=o[n];(Array.isArray(r)&&Array.isArray(c)?[...r].sort().join(`
`)===[...c].sort().join(`
`):r===c)||(e[n]=r)}return e}set(e){this.notice="",this.draft={...this.draft,...e}}toggleArea(e,t){let o=this.draft.learning_opt_out_areas.filter(n=>n!==e);this.set({learning_opt_out_areas:t?[...o,e]:o})}async save(e){e.preventDefault();let t=this.changes();if(this.retentionDays()===void 0||Object.keys(t).length===0)return;let o=await this.run(()=>this.ctx.api.updateSettings(t));o&&(this.show(o),this.notice=this.ctx.t("settings.saved"))}check(e,t,o,n){return a`<label class="check" for=${e}>
      <input
        id=${e}
        data-testid=${e}
        type="checkbox"
        .checked=${this.draft[t]}
        @change=${r=>this.set({[t]:r.target.checked})}
      />
      <span><span>${o}</span><br /><span class="help">${n}</span></span>
    </label>`}render(){let e=this.ctx;if(!e)return d;let t=e.t,o=this.draft;if(!o)return a`${this.renderError()}${this.busy?a`<p class="muted">${t("common.loading")}</p>`:d}`;let n=[...e.areas.map(l=>({id:l.area_id,name:l.name})),...o.learning_opt_out_areas.filter(l=>!e.areas.some(p=>p.area_id===l)).map(l=>({id:l,name:l}))],r=Object.keys(this.changes()).length>0,c=this.retentionDays()===void 0;return a`${this.renderError()}
      ${this.notice?a`<div class="notice" role="status" data-testid="settings-saved">${this.notice}</div>`:d}
      <form class="card" data-testid="settings-form" novalidate @submit=${l=>this.save(l)}>
        <h2>${t("settings.title")}</h2>
        <p class="help">${t("settings.help")}</p>
        ${this.check("settings-learning","learning",t("settings.learning"),t("settings.learning_help"))}
        <fieldset class="card">
          <legend>${t("settings.opt_out")}</legend>
          <p class="help">${t("settings.opt_out_help")}</p>
          ${n.length===0?a`<p class="muted">${t("settings.no_areas")}</p>`:n.map(l=>a`<label class="check" for="settings-optout-${l.id}">
                  <input
                    id="settings-optout-${l.id}"
                    data-testid="settings-optout-${l.id}"
                    type="checkbox"
                    .checked=${o.learning_opt_out_areas.includes(l.id)}
                    @change=${p=>this.toggleArea(l.id,p.target.checked)}
                  />
                  <span>${l.name}</span>
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
            @input=${l=>this.typedRetention(l.target.value)}
          />
        </label>
        ${c?a`<p class="error" id="settings-retention-error" role="alert" data-testid="settings-retention-error">
              ${t("settings.retention_invalid",{field:t("settings.retention"),min:C.min,max:C.max})}
            </p>`:d}
        <p class="help" id="settings-retention-help">
          ${t("settings.retention_help",{min:C.min,max:C.max})}
        </p>
        <div class="actions">
          <button class="primary" type="submit" data-testid="settings-save" ?disabled=${this.busy||!r||c}>
            ${t("common.save")}
          </button>
          <button type="button" data-testid="settings-reset" ?disabled=${this.busy||!r&&!c} @click=${()=>this.load()}>
            ${t("settings.reset")}
          </button>
        </div>
      </form>`}};g("hm-settings",Ue);function ci(s){return`household-memory-${typeof s=="string"&&/^\d{4}-\d{2}-\d{2}/.test(s)?s.slice(0,10):"export"}.json`}var Be=class extends b{static{this.properties={exported:{state:!0},report:{state:!0},progress:{state:!0}}}reasonText(i){let e=this.ctx.t;if(i.field){let n=Ce(this.localize,i.reason,{field:i.field});if(n)return n}let t=`transfer.reason.${i.reason}`,o=e(t);return o!==t?o:e("transfer.reason.other")}async exportAll(){let i=await this.run(()=>this.ctx.api.exportAll());if(!i)return;let e=ci(i.exported_at),t=new Blob([JSON.stringify(i,null,2)+`
`],{type:"application/json"}),o=URL.createObjectURL(t),n=document.createElement("a");n.href=o,n.download=e,n.hidden=!0,this.renderRoot.appendChild(n),n.click(),n.remove(),URL.revokeObjectURL(o),this.exported={count:Array.isArray(i.memories)?i.memories.length:0,file:e}}async importFile(i){let e=i.target,t=e.files?.[0];if(!t)return;this.report=void 0;let o;try{o=JSON.parse(await t.text())}catch{this.error=this.ctx.t("transfer.invalid_json",{file:t.name}),e.value="";return}let n=await this.run(()=>this.ctx.api.importAll(o,(r,c)=>{this.progress={done:r,total:c}}));this.progress=void 0,e.value="",n&&(n.rejected.length&&(this.localize=await Re(this.ctx.hass)),this.report=n,this.dispatchEvent(new CustomEvent("memory-changed",{bubbles:!0,composed:!0})))}render(){let i=this.ctx;if(!i)return d;let e=i.t,t=this.report;return a`${this.renderError()}
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
            </p>`:d}
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
            @change=${o=>this.importFile(o)}
          />
        </label>
        ${this.progress?a`<p class="notice" role="status" data-testid="import-progress">
              <progress max=${this.progress.total} value=${this.progress.done}></progress>
              ${e("transfer.importing",{done:this.progress.done,total:this.progress.total})}
            </p>`:d}
        ${t?a`<div class="notice" role="status" data-testid="import-report">
              <p data-testid="import-created">${e("transfer.created",{n:t.created})}</p>
              <p data-testid="import-duplicates">${e("transfer.duplicates",{n:t.duplicates})}</p>
              <p data-testid="import-rejected">${e("transfer.rejected",{n:t.rejected.length})}</p>
              ${t.rejected.length?a`<ul>
                    ${t.rejected.map(o=>a`<li data-testid="import-rejected-item" data-reason=${o.reason}>${e("transfer.rejected_item",{index:o.index+1,reason:this.reasonText(o)})}</li>`)}
                  </ul>`:d}
            </div>`:d}
      </div>`}};g("hm-transfer",Be);function Nt(){return typeof window<"u"&&window.isSecureContext&&!!navigator.mediaDevices?.getUserMedia&&typeof AudioWorkletNode<"u"}var li=`class HmTap extends AudioWorkletProcessor {
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
registerProcessor("hm-tap", HmTap);`,he=class{constructor(){this.chunks=[];this.length=0}async start(i){this.stream=await navigator.mediaDevices.getUserMedia({audio:{channelCount:1,echoCancellation:!1,noiseSuppression:!1,autoGainControl:!1}});let e=new AudioContext;this.context=e;let t=URL.createObjectURL(new Blob([li],{type:"application/javascript"}));try{await e.audioWorklet.addModule(t)}finally{URL.revokeObjectURL(t)}this.node=new AudioWorkletNode(e,"hm-tap",{numberOfInputs:1,numberOfOutputs:0}),this.node.port.onmessage=o=>{this.chunks.push(o.data),this.length+=o.data.length,i(this.length/e.sampleRate,di(o.data))},e.createMediaStreamSource(this.stream).connect(this.node)}async stop(){let i=this.context?.sampleRate??16e3;this.release();let e=new Float32Array(Math.min(this.length,30*i)),t=0;for(let o of this.chunks){if(t>=e.length)break;e.set(o.subarray(0,e.length-t),t),t+=o.length}return this.chunks=[],pi(e,i)}release(){this.node?.port.close(),this.node?.disconnect(),this.stream?.getTracks().forEach(i=>i.stop()),this.context?.close(),this.node=void 0,this.stream=void 0,this.context=void 0}};function di(s){let i=0;for(let t of s)i+=t*t;let e=s.length?i/s.length:0;return Math.max(-100,10*Math.log10(e+1e-30))}async function pi(s,i){if(i===16e3||s.length===0)return s;let e=Math.max(1,Math.round(s.length*16e3/i)),t=new OfflineAudioContext(1,e,16e3),o=t.createBuffer(1,s.length,i);o.copyToChannel(s,0);let n=t.createBufferSource();return n.buffer=o,n.connect(t.destination),n.start(),(await t.startRendering()).getChannelData(0)}async function qt(s){let i=await new OfflineAudioContext(1,1,16e3).decodeAudioData(await s.arrayBuffer()),e=new Float32Array(i.length);for(let t=0;t<i.numberOfChannels;t++){let o=i.getChannelData(t);for(let n=0;n<e.length;n++)e[n]+=o[n]/i.numberOfChannels}return e}function ui(s){let i=new Uint8Array(44+s.length*2),e=new DataView(i.buffer),t=(o,n)=>[...n].forEach((r,c)=>e.setUint8(o+c,r.charCodeAt(0)));t(0,"RIFF"),e.setUint32(4,36+s.length*2,!0),t(8,"WAVE"),t(12,"fmt "),e.setUint32(16,16,!0),e.setUint16(20,1,!0),e.setUint16(22,1,!0),e.setUint32(24,16e3,!0),e.setUint32(28,16e3*2,!0),e.setUint16(32,2,!0),e.setUint16(34,16,!0),t(36,"data"),e.setUint32(40,s.length*2,!0);for(let o=0;o<s.length;o++){let n=Math.max(-1,Math.min(1,s[o]));e.setInt16(44+o*2,n<0?n*32768:n*32767,!0)}return i}function Fe(s,i){let e=ui(i);return{name:s,seconds:i.length/16e3,wav:e,url:URL.createObjectURL(new Blob([e],{type:"audio/wav"}))}}function Ot(s){let i="";for(let t=0;t<s.length;t+=32768)i+=String.fromCharCode(...s.subarray(t,t+32768));return btoa(i)}var X=-60,Ge=class extends b{constructor(){super(...arguments);this.person="";this.source="record";this.clips=[];this.recording=!1;this.elapsed=0;this.level=X;this.satellite="";this.utterances=0;this.notice="";this.assessing=!1;this.taken=0;this.generation=0}static{this.styles=[$,y`
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
    `]}static{this.properties={status:{state:!0},recognitions:{state:!0},person:{state:!0},source:{state:!0},clips:{state:!0},report:{state:!0},recording:{state:!0},elapsed:{state:!0},level:{state:!0},satellite:{state:!0},utterances:{state:!0},notice:{state:!0},assessing:{state:!0}}}start(){this.load()}disconnectedCallback(){super.disconnectedCallback(),this.recorder?.release(),this.clips.forEach(e=>URL.revokeObjectURL(e.url))}async load(){let e=this.ctx.api,[t,o]=await this.run(()=>Promise.all([e.voiceStatus(),e.voiceRecognitions()]))??[];o&&(this.recognitions=o),t&&(this.status=t,t.satellites.some(n=>n.satellite===this.satellite)||(this.satellite=t.satellites[0]?.satellite??""))}choose(e){this.person=e,this.notice="",this.setClips([])}setClips(e){for(let t of this.clips)e.includes(t)||URL.revokeObjectURL(t.url);this.clips=e,this.report=void 0,this.generation++,e.length&&this.assess()}clipSource(){return this.source==="satellite"?this.satellite?{satellite:this.satellite,utterances:this.utterances||void 0}:void 0:this.clips.length?{clips:this.clips.map(e=>({name:e.name,wav:Ot(e.wav)}))}:void 0}clipsProblem(){let e=this.ctx.t;return this.source!=="record"?"":this.clips.length>10?e("voice.too_many",{max:10}):this.clips.reduce((o,n)=>o+n.seconds,0)>90?e("voice.too_much_audio",{max:90}):""}async assess(){let e=this.clipSource();if(!e||this.clipsProblem())return;let t=this.generation;this.assessing=!0;try{let o=await this.run(()=>this.ctx.api.assessVoice(this.person,e));o&&t===this.generation&&(this.report=o)}finally{this.assessing=!1}}async record(){let e=new he;this.error="",this.elapsed=0;try{await e.start((t,o)=>{this.elapsed=t,this.level=o,t>=30&&this.stop()})}catch{e.release(),this.error=this.ctx.t("voice.mic_refused");return}this.recorder=e,this.recording=!0}async stop(){let e=this.recorder;if(!e)return;this.recorder=void 0,this.recording=!1,this.level=X;let t=await e.stop();this.taken++,this.setClips([...this.clips,Fe(this.ctx.t("voice.clip_name",{n:this.taken}),t)])}async upload(e){let t=e.target,o=[...t.files??[]];t.value="";let n=this.ctx.t,r=[];this.error="";for(let c of o){let l;try{l=await qt(c)}catch{this.error=n("voice.file_unreadable",{file:c.name});continue}if(l.length>30*16e3){this.error=n("voice.file_too_long",{file:c.name,max:30});continue}r.push(Fe(c.name,l))}r.length&&this.setClips([...this.clips,...r])}async enroll(){let e=this.ctx,t=this.clipSource();if(!t)return;let o=this.person,n=await this.run(()=>e.api.enrollVoice(o,t));n&&(this.notice=e.t("voice.enrolled_done",{person:e.personName(o),n:n.clips}),this.person="",this.setClips([]),await this.load())}async forget(e){let t=this.ctx,o=t.t,n=t.personName(e);if(!await this.renderRoot.querySelector("hm-confirm").ask(o("voice.forget_confirm",{person:n}),o("voice.forget"),o("common.cancel")))return;let c=await this.run(()=>t.api.forgetVoice(e));c&&(this.notice=o(c.forgotten?"voice.forgotten":"voice.nothing_to_forget",{person:n}),this.person===e&&this.choose(""),await this.load())}percent(e){return new Intl.NumberFormat(this.ctx.language,{style:"percent",maximumFractionDigits:0}).format(e)}decibels(e){return this.ctx.number(Math.round(e)||0,0)}renderPeople(e){let t=this.ctx,o=t.t,n=new Map(t.persons.map(c=>[c.id,c.name])),r=[...e.voices].sort((c,l)=>t.personName(c.person).localeCompare(t.personName(l.person)));return a`<div class="card">
      <h2>${o("voice.title")}</h2>
      <p class="help">${o("voice.help")}</p>
      ${e.recognition?d:a`<p class="error" data-testid="voice-off">${o("voice.off")}</p>`}
      ${r.length===0?a`<p class="muted" data-testid="voice-no-persons">${o("voice.no_persons")}</p>`:a`<div class="scroll"><table data-testid="voice-people">
            <thead>
              <tr><th>${o("field.person")}</th><th>${o("voice.state")}</th><th></th></tr>
            </thead>
            <tbody>
              ${r.map(c=>a`<tr data-testid="voice-person" data-person=${c.person} data-enrolled=${c.enrolled?"true":"false"}>
                  <td>${n.get(c.person)??c.person}</td>
                  <td data-testid="voice-state">
                    ${c.enrolled?o("voice.enrolled",{n:c.clips,time:t.time(c.enrolled_at)}):o("voice.not_enrolled")}
                  </td>
                  <td class="actions-cell">
                    ${e.recognition&&n.has(c.person)?a`<button
                          data-testid="voice-enrol"
                          aria-pressed=${this.person===c.person?"true":"false"}
                          ?disabled=${this.busy||this.recording}
                          @click=${()=>this.choose(this.person===c.person?"":c.person)}
                        >
                          ${c.enrolled?o("voice.re_enrol"):o("voice.enrol")}
                        </button>`:d}
                    ${c.enrolled?a`<button class="danger" data-testid="voice-forget" ?disabled=${this.busy} @click=${()=>this.forget(c.person)}>
                          ${o("voice.forget")}
                        </button>`:d}
                  </td>
                </tr>`)}
            </tbody>
          </table></div>`}
    </div>`}recognised(e){let t=this.ctx,o=t.t;if(e.conflict&&e.named)return e.named.person?o("voice.named_other",{name:e.named.name,person:t.personName(e.voice_person??"")}):o("voice.named_nobody",{name:e.named.name});if(!e.person||!e.recogniser)return o("voice.unknown");let n=e.recogniser==="voice"?o("voice.by.voice"):o(`voice.by.${e.recogniser}`,{name:e.named?.name??""});return o("voice.recognised_by",{person:t.personName(e.person),by:n})}renderRecognitions(e){let t=this.ctx,o=t.t;return a`<div class="card" data-testid="voice-recent">
      <div class="row">
        <h2>${o("voice.recent_title")}</h2>
        <button data-testid="voice-recent-refresh" ?disabled=${this.busy} @click=${()=>this.load()}>${o("common.refresh")}</button>
      </div>
      <p class="help">${o("voice.recent_help",{n:e.kept})}</p>
      ${e.satellites.length===0?a`<p class="muted" data-testid="voice-recent-none">${o("voice.recent_none")}</p>`:e.satellites.map(n=>a`<h3>${n.name}</h3>
              <div class="scroll"><table data-testid="voice-recent-satellite" data-satellite=${n.satellite}>
                <thead>
                  <tr>
                    <th>${o("voice.col_time")}</th><th>${o("voice.col_who")}</th><th>${o("voice.col_score")}</th>
                    <th>${o("voice.speech")}</th><th>${o("voice.col_snr")}</th><th>${o("voice.col_strict")}</th>
                  </tr>
                </thead>
                <tbody>
                  ${n.recognitions.map(r=>a`<tr data-testid="voice-recognition" data-person=${r.person??""} data-recogniser=${r.recogniser??""}>
                      <td>${t.time(r.at)}</td>
                      <td data-testid="voice-recognised" class=${r.person?"ok":"muted"}>${this.recognised(r)}</td>
                      <td data-testid="voice-score">
                        ${r.score===null||r.threshold===null?"—":o("voice.score_value",{score:t.number(r.score,2),threshold:t.number(r.threshold,2)})}
                      </td>
                      <td>${o("voice.seconds",{s:t.number(r.speech_seconds,1)})}</td>
                      <td>${o("voice.snr_value",{db:this.decibels(r.snr_db)})}</td>
                      <td data-testid="voice-strict">${o(r.strict?"common.yes":"common.no")}</td>
                    </tr>`)}
                </tbody>
              </table></div>`)}
    </div>`}renderRecorder(){let e=this.ctx.t,t=this.clips.length>=10,o=Math.floor(this.elapsed),n=Math.max(0,Math.min(100,(this.level-X)/-X*100));return a`<p class="help">${e("voice.record_help",{min:2,max:30})}</p>
      ${Nt()?a`<div class="row">
            ${this.recording?a`<button class="danger" data-testid="voice-stop" @click=${()=>this.stop()}>${e("voice.stop")}</button>
                  <span data-testid="voice-elapsed" data-seconds=${o} aria-live="off">
                    ${e("voice.recording",{s:o,max:30})}
                  </span>
                  <div class="level" role="meter" aria-label=${e("voice.level")} aria-valuemin=${X} aria-valuemax="0" aria-valuenow=${Math.round(this.level)}>
                    <span style="width: ${n}%"></span>
                  </div>`:a`<button class="primary" data-testid="voice-record" ?disabled=${t||this.busy} @click=${()=>this.record()}>
                  ${e("voice.record")}
                </button>`}
          </div>`:a`<p class="muted" data-testid="voice-no-mic">${e("voice.no_mic")}</p>`}
      <label class="field" for="voice-upload"
        >${e("voice.upload")}
        <input
          id="voice-upload"
          data-testid="voice-upload"
          type="file"
          accept=".wav,audio/wav,audio/*"
          multiple
          ?disabled=${t||this.recording}
          @change=${r=>this.upload(r)}
        />
      </label>
      ${this.clips.length?a`<ul class="plain" data-testid="voice-clips">
            ${this.clips.map((r,c)=>this.renderClip(r,this.report?.clips[c]))}
          </ul>`:d}`}renderClip(e,t){let o=this.ctx.t;return a`<li class="card" data-testid="voice-clip" data-problem=${t?.problem??""}>
      <div class="row">
        <strong>${e.name}</strong>
        <span class="muted">${o("voice.seconds",{s:this.ctx.number(e.seconds,1)})}</span>
      </div>
      <audio controls preload="metadata" src=${e.url} data-testid="voice-clip-audio"></audio>
      ${t?this.renderAssessment(t):d}
      <div class="actions">
        <button
          data-testid="voice-clip-discard"
          ?disabled=${this.recording}
          @click=${()=>this.setClips(this.clips.filter(n=>n!==e))}
        >
          ${o("voice.discard")}
        </button>
      </div>
    </li>`}renderAssessment(e){let t=this.ctx,o=t.t,n=e.same_voice===null?o("voice.same_unknown"):o(e.same_voice?"voice.same_yes":"voice.same_no",{score:t.number(e.similarity??0,2)});return a`<div data-testid="voice-quality">
      <div data-testid="voice-verdict" class=${e.problem?"bad":"ok"}>
        ${e.problem?t.label("voice.problem",e.problem):o("voice.clip_ok")}
      </div>
      <dl class="fields">
        <dt>${o("voice.speech")}</dt>
        <dd data-testid="voice-speech">${o("voice.seconds",{s:t.number(e.active_seconds,1)})}</dd>
        <dt>${o("voice.level_label")}</dt>
        <dd data-testid="voice-level">
          ${o("voice.level_value",{level:this.decibels(e.level_dbfs),peak:this.decibels(e.peak_dbfs)})}
        </dd>
        <dt>${o("voice.clipping")}</dt>
        <dd data-testid="voice-clipping">${this.percent(e.clipped)}</dd>
        <dt>${o("voice.snr")}</dt>
        <dd data-testid="voice-snr">${o("voice.snr_value",{db:this.decibels(e.snr_db)})}</dd>
        <dt>${o("voice.same")}</dt>
        <dd data-testid="voice-same">${n}</dd>
      </dl>
      ${e.warnings.length?a`<div class="chips">
            ${e.warnings.map(r=>a`<span class="chip warn" data-testid="voice-warning" data-warning=${r}>${t.label("voice.warning",r)}</span>`)}
          </div>`:d}
    </div>`}renderSatellite(e){let o=this.ctx.t,n=e.satellites.find(c=>c.satellite===this.satellite);if(!n)return a`<p class="muted" data-testid="voice-no-satellite">${o("voice.no_satellite")}</p>`;let r=Array.from({length:Math.max(0,n.utterances-2+1)},(c,l)=>String(2+l));return a`<p class="help">${o("voice.satellite_help")}</p>
      <div class="grid">
        ${f("voice-satellite",o("voice.satellite"),this.satellite,e.satellites.map(c=>({value:c.satellite,label:o("voice.satellite_option",{name:c.name,n:c.utterances})})),c=>{this.satellite=c,this.utterances=0,this.report=void 0})}
        ${f("voice-utterances",o("voice.utterances"),String(this.utterances||n.utterances),r.map(c=>({value:c,label:c})),c=>{this.utterances=Number(c),this.report=void 0})}
      </div>
      <div class="actions">
        <button data-testid="voice-assess" ?disabled=${this.busy} @click=${()=>this.assess()}>${o("voice.assess")}</button>
      </div>
      ${this.report?a`<ul class="plain" data-testid="voice-clips">
            ${this.report.clips.map(c=>a`<li class="card" data-testid="voice-clip" data-problem=${c.problem??""}>
                <strong>${c.name}</strong>${this.renderAssessment(c)}
              </li>`)}
          </ul>`:d}`}renderReport(e){let t=this.ctx,o=t.t,n=e.expected;return a`<div data-testid="voice-report" data-accepted=${e.accepted?"true":"false"}>
      ${n?a`<h3>${o("voice.expected")}</h3>
            <dl class="fields" data-testid="voice-expected">
              <dt>${o("voice.expected_sentence")}</dt>
              <dd data-testid="voice-expected-sentence">${this.percent(n.sentence)}</dd>
              <dt>${o("voice.expected_command")}</dt>
              <dd data-testid="voice-expected-command">${this.percent(n.command)}</dd>
              <dt>${o("voice.expected_noisy")}</dt>
              <dd data-testid="voice-expected-noisy">${this.percent(n.noisy)}</dd>
            </dl>
            <p class="help">${o("voice.expected_help")}</p>`:d}
      ${e.other_person?a`<p class="error" data-testid="voice-other-person">
            ${o("voice.other_person",{person:t.personName(e.other_person)})}
          </p>`:d}
      ${e.accepted?d:a`<p class="muted" data-testid="voice-not-ready">${o("voice.not_ready",{min:2})}</p>`}
    </div>`}renderEnrolment(e){let t=this.ctx,o=t.t,n=this.clipsProblem(),r=!!this.report?.accepted&&!n&&!this.recording&&!this.assessing;return a`<div class="card" data-testid="voice-enrolment" data-person=${this.person}>
      <h2>${o("voice.enrol_title",{person:t.personName(this.person)})}</h2>
      <div class="grid">
        ${f("voice-source",o("voice.source"),this.source,[{value:"record",label:o("voice.source_record")},{value:"satellite",label:o("voice.source_satellite")}],c=>{this.source=c,this.report=void 0,this.generation++,c==="record"&&this.clips.length&&this.assess()})}
      </div>
      ${this.source==="record"?this.renderRecorder():this.renderSatellite(e)}
      ${n?a`<p class="error" role="alert" data-testid="voice-clips-problem">${n}</p>`:d}
      ${this.assessing?a`<p class="muted" data-testid="voice-assessing">${o("voice.assessing")}</p>`:d}
      ${this.report?this.renderReport(this.report):d}
      <div class="actions">
        <button class="primary" data-testid="voice-enrol-submit" ?disabled=${!r||this.busy} @click=${()=>this.enroll()}>
          ${o("voice.enrol_submit")}
        </button>
        <button data-testid="voice-enrol-cancel" ?disabled=${this.recording} @click=${()=>this.choose("")}>
          ${o("common.cancel")}
        </button>
      </div>
    </div>`}render(){let e=this.ctx;if(!e)return d;let t=this.status;return a`<hm-confirm></hm-confirm>
      ${this.notice?a`<div class="notice" role="status" data-testid="notice">${this.notice}</div>`:d}
      ${this.renderError()}
      ${t?a`${this.renderPeople(t)} ${this.person&&t.recognition?this.renderEnrolment(t):d}
          ${this.recognitions?.recognition?this.renderRecognitions(this.recognitions):d}`:this.busy?a`<p class="muted">${e.t("common.loading")}</p>`:d}`}};g("hm-voice",Ge);var Dt=["overview","list","search","pending","forget","consolidate","transfer","voice","settings"],hi="M3,6H21V8H3V6M3,11H21V13H3V11M3,16H21V18H3V16Z",Qe=class extends x{constructor(){super();this.narrow=!1;this.tab="overview";this.memoryId="";this.areas=[];this.areasLoaded=!1;this.addEventListener("memory-open",e=>{this.memoryId=e.detail.id}),this.addEventListener("memory-navigate",e=>{let t=e.detail.view;this.memoryId="",Dt.includes(t)&&(this.tab=t)})}static{this.styles=[$,y`
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
    `]}static{this.properties={hass:{attribute:!1},narrow:{type:Boolean,reflect:!0},tab:{state:!0},memoryId:{state:!0},areas:{state:!0},ctx:{state:!0}}}willUpdate(e){if(!this.hass)return;this.areasLoaded||(this.areasLoaded=!0,this.loadAreas());let t=e.get("hass");(!this.ctx||e.has("areas")||t&&(t.language!==this.hass.language||this.personsChanged(t,this.hass)))&&(this.ctx=kt(this.hass,this.areas))}personsChanged(e,t){let o=n=>Object.keys(n.states).filter(r=>r.startsWith("person.")).map(r=>`${r}=${String(n.states[r].attributes.friendly_name??"")}`).join(`
`);return e.states!==t.states&&o(e)!==o(t)}async loadAreas(){try{let e=await this.hass.callWS({type:"config/area_registry/list"});this.areas=[...e].sort((t,o)=>t.name.localeCompare(o.name))}catch{this.areas=[]}}updated(e){e.has("memoryId")&&e.get("memoryId")!==void 0&&(this.renderRoot.querySelector("main")?.focus({preventScroll:!0}),this.scrollIntoView?.({block:"start"}))}toggleMenu(){this.dispatchEvent(new CustomEvent("hass-toggle-menu",{bubbles:!0,composed:!0}))}select(e){this.memoryId="",this.tab=e}renderView(e){if(this.memoryId)return a`<hm-detail .ctx=${e} .memoryId=${this.memoryId}></hm-detail>`;switch(this.tab){case"overview":return a`<hm-overview .ctx=${e}></hm-overview>`;case"list":return a`<hm-list .ctx=${e}></hm-list>`;case"search":return a`<hm-search .ctx=${e}></hm-search>`;case"pending":return a`<hm-pending .ctx=${e}></hm-pending>`;case"forget":return a`<hm-forget .ctx=${e}></hm-forget>`;case"consolidate":return a`<hm-consolidate .ctx=${e}></hm-consolidate>`;case"transfer":return a`<hm-transfer .ctx=${e}></hm-transfer>`;case"voice":return a`<hm-voice .ctx=${e}></hm-voice>`;case"settings":return a`<hm-settings .ctx=${e}></hm-settings>`}}render(){let e=this.ctx;if(!e)return d;let t=e.t;return a`<header>
        ${this.narrow?a`<button data-testid="menu" aria-label=${t("panel.menu")} title=${t("panel.menu")} @click=${this.toggleMenu}>
              <svg viewBox="0 0 24 24" aria-hidden="true"><path d=${hi}></path></svg>
            </button>`:d}
        <h1 data-testid="panel-title">${t("panel.title")}</h1>
      </header>
      <nav aria-label=${t("panel.sections")}>
        ${Dt.map(o=>a`<button
              data-testid="tab-${o}"
              aria-current=${this.tab===o&&!this.memoryId?"page":"false"}
              @click=${()=>this.select(o)}
            >
              ${t(`tab.${o}`)}
            </button>`)}
      </nav>
      <main tabindex="-1" data-testid="view-${this.memoryId?"memory":this.tab}">${this.renderView(e)}</main>`}};g("household-memory-panel",Qe);export{Qe as HouseholdMemoryPanel,Dt as TABS};
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
