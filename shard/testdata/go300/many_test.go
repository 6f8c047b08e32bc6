// Code generated for strobe's partition tests; 300 tests, three of them failing (7, 107, 207).

package go300

import "testing"

func TestN001(t *testing.T) {
}

func TestN002(t *testing.T) {
}

func TestN003(t *testing.T) {
}

func TestN004(t *testing.T) {
}

func TestN005(t *testing.T) {
}

func TestN006(t *testing.T) {
}

func TestN007(t *testing.T) {
	t.Error("test 7 fails on purpose")
}

func TestN008(t *testing.T) {
}

func TestN009(t *testing.T) {
}

func TestN010(t *testing.T) {
}

func TestN011(t *testing.T) {
}

func TestN012(t *testing.T) {
}

func TestN013(t *testing.T) {
}

func TestN014(t *testing.T) {
}

func TestN015(t *testing.T) {
}

func TestN016(t *testing.T) {
}

func TestN017(t *testing.T) {
}

func TestN018(t *testing.T) {
}

func TestN019(t *testing.T) {
}

func TestN020(t *testing.T) {
}

func TestN021(t *testing.T) {
}

func TestN022(t *testing.T) {
}

func TestN023(t *testing.T) {
}

func TestN024(t *testing.T) {
}

func TestN025(t *testing.T) {
}

func TestN026(t *testing.T) {
}

func TestN027(t *testing.T) {
}

func TestN028(t *testing.T) {
}

func TestN029(t *testing.T) {
}

func TestN030(t *testing.T) {
}

func TestN031(t *testing.T) {
}

func TestN032(t *testing.T) {
}

func TestN033(t *testing.T) {
}

func TestN034(t *testing.T) {
}

func TestN035(t *testing.T) {
}

func TestN036(t *testing.T) {
}

func TestN037(t *testing.T) {
}

func TestN038(t *testing.T) {
}

func TestN039(t *testing.T) {
}

func TestN040(t *testing.T) {
}

func TestN041(t *testing.T) {
}

func TestN042(t *testing.T) {
}

func TestN043(t *testing.T) {
}

func TestN044(t *testing.T) {
}

func TestN045(t *testing.T) {
}

func TestN046(t *testing.T) {
}

func TestN047(t *testing.T) {
}

func TestN048(t *testing.T) {
}

func TestN049(t *testing.T) {
}

func TestN050(t *testing.T) {
}

func TestN051(t *testing.T) {
}

func TestN052(t *testing.T) {
}

func TestN053(t *testing.T) {
}

func TestN054(t *testing.T) {
}

func TestN055(t *testing.T) {
}

func TestN056(t *testing.T) {
}

func TestN057(t *testing.T) {
}

func TestN058(t *testing.T) {
}

func TestN059(t *testing.T) {
}

func TestN060(t *testing.T) {
}

func TestN061(t *testing.T) {
}

func TestN062(t *testing.T) {
}

func TestN063(t *testing.T) {
}

func TestN064(t *testing.T) {
}

func TestN065(t *testing.T) {
}

func TestN066(t *testing.T) {
}

func TestN067(t *testing.T) {
}

func TestN068(t *testing.T) {
}

func TestN069(t *testing.T) {
}

func TestN070(t *testing.T) {
}

func TestN071(t *testing.T) {
}

func TestN072(t *testing.T) {
}

func TestN073(t *testing.T) {
}

func TestN074(t *testing.T) {
}

func TestN075(t *testing.T) {
}

func TestN076(t *testing.T) {
}

func TestN077(t *testing.T) {
}

func TestN078(t *testing.T) {
}

func TestN079(t *testing.T) {
}

func TestN080(t *testing.T) {
}

func TestN081(t *testing.T) {
}

func TestN082(t *testing.T) {
}

func TestN083(t *testing.T) {
}

func TestN084(t *testing.T) {
}

func TestN085(t *testing.T) {
}

func TestN086(t *testing.T) {
}

func TestN087(t *testing.T) {
}

func TestN088(t *testing.T) {
}

func TestN089(t *testing.T) {
}

func TestN090(t *testing.T) {
}

func TestN091(t *testing.T) {
}

func TestN092(t *testing.T) {
}

func TestN093(t *testing.T) {
}

func TestN094(t *testing.T) {
}

func TestN095(t *testing.T) {
}

func TestN096(t *testing.T) {
}

func TestN097(t *testing.T) {
}

func TestN098(t *testing.T) {
}

func TestN099(t *testing.T) {
}

func TestN100(t *testing.T) {
}

func TestN101(t *testing.T) {
}

func TestN102(t *testing.T) {
}

func TestN103(t *testing.T) {
}

func TestN104(t *testing.T) {
}

func TestN105(t *testing.T) {
}

func TestN106(t *testing.T) {
}

func TestN107(t *testing.T) {
	t.Error("test 107 fails on purpose")
}

func TestN108(t *testing.T) {
}

func TestN109(t *testing.T) {
}

func TestN110(t *testing.T) {
}

func TestN111(t *testing.T) {
}

func TestN112(t *testing.T) {
}

func TestN113(t *testing.T) {
}

func TestN114(t *testing.T) {
}

func TestN115(t *testing.T) {
}

func TestN116(t *testing.T) {
}

func TestN117(t *testing.T) {
}

func TestN118(t *testing.T) {
}

func TestN119(t *testing.T) {
}

func TestN120(t *testing.T) {
}

func TestN121(t *testing.T) {
}

func TestN122(t *testing.T) {
}

func TestN123(t *testing.T) {
}

func TestN124(t *testing.T) {
}

func TestN125(t *testing.T) {
}

func TestN126(t *testing.T) {
}

func TestN127(t *testing.T) {
}

func TestN128(t *testing.T) {
}

func TestN129(t *testing.T) {
}

func TestN130(t *testing.T) {
}

func TestN131(t *testing.T) {
}

func TestN132(t *testing.T) {
}

func TestN133(t *testing.T) {
}

func TestN134(t *testing.T) {
}

func TestN135(t *testing.T) {
}

func TestN136(t *testing.T) {
}

func TestN137(t *testing.T) {
}

func TestN138(t *testing.T) {
}

func TestN139(t *testing.T) {
}

func TestN140(t *testing.T) {
}

func TestN141(t *testing.T) {
}

func TestN142(t *testing.T) {
}

func TestN143(t *testing.T) {
}

func TestN144(t *testing.T) {
}

func TestN145(t *testing.T) {
}

func TestN146(t *testing.T) {
}

func TestN147(t *testing.T) {
}

func TestN148(t *testing.T) {
}

func TestN149(t *testing.T) {
}

func TestN150(t *testing.T) {
}

func TestN151(t *testing.T) {
}

func TestN152(t *testing.T) {
}

func TestN153(t *testing.T) {
}

func TestN154(t *testing.T) {
}

func TestN155(t *testing.T) {
}

func TestN156(t *testing.T) {
}

func TestN157(t *testing.T) {
}

func TestN158(t *testing.T) {
}

func TestN159(t *testing.T) {
}

func TestN160(t *testing.T) {
}

func TestN161(t *testing.T) {
}

func TestN162(t *testing.T) {
}

func TestN163(t *testing.T) {
}

func TestN164(t *testing.T) {
}

func TestN165(t *testing.T) {
}

func TestN166(t *testing.T) {
}

func TestN167(t *testing.T) {
}

func TestN168(t *testing.T) {
}

func TestN169(t *testing.T) {
}

func TestN170(t *testing.T) {
}

func TestN171(t *testing.T) {
}

func TestN172(t *testing.T) {
}

func TestN173(t *testing.T) {
}

func TestN174(t *testing.T) {
}

func TestN175(t *testing.T) {
}

func TestN176(t *testing.T) {
}

func TestN177(t *testing.T) {
}

func TestN178(t *testing.T) {
}

func TestN179(t *testing.T) {
}

func TestN180(t *testing.T) {
}

func TestN181(t *testing.T) {
}

func TestN182(t *testing.T) {
}

func TestN183(t *testing.T) {
}

func TestN184(t *testing.T) {
}

func TestN185(t *testing.T) {
}

func TestN186(t *testing.T) {
}

func TestN187(t *testing.T) {
}

func TestN188(t *testing.T) {
}

func TestN189(t *testing.T) {
}

func TestN190(t *testing.T) {
}

func TestN191(t *testing.T) {
}

func TestN192(t *testing.T) {
}

func TestN193(t *testing.T) {
}

func TestN194(t *testing.T) {
}

func TestN195(t *testing.T) {
}

func TestN196(t *testing.T) {
}

func TestN197(t *testing.T) {
}

func TestN198(t *testing.T) {
}

func TestN199(t *testing.T) {
}

func TestN200(t *testing.T) {
}

func TestN201(t *testing.T) {
}

func TestN202(t *testing.T) {
}

func TestN203(t *testing.T) {
}

func TestN204(t *testing.T) {
}

func TestN205(t *testing.T) {
}

func TestN206(t *testing.T) {
}

func TestN207(t *testing.T) {
	t.Error("test 207 fails on purpose")
}

func TestN208(t *testing.T) {
}

func TestN209(t *testing.T) {
}

func TestN210(t *testing.T) {
}

func TestN211(t *testing.T) {
}

func TestN212(t *testing.T) {
}

func TestN213(t *testing.T) {
}

func TestN214(t *testing.T) {
}

func TestN215(t *testing.T) {
}

func TestN216(t *testing.T) {
}

func TestN217(t *testing.T) {
}

func TestN218(t *testing.T) {
}

func TestN219(t *testing.T) {
}

func TestN220(t *testing.T) {
}

func TestN221(t *testing.T) {
}

func TestN222(t *testing.T) {
}

func TestN223(t *testing.T) {
}

func TestN224(t *testing.T) {
}

func TestN225(t *testing.T) {
}

func TestN226(t *testing.T) {
}

func TestN227(t *testing.T) {
}

func TestN228(t *testing.T) {
}

func TestN229(t *testing.T) {
}

func TestN230(t *testing.T) {
}

func TestN231(t *testing.T) {
}

func TestN232(t *testing.T) {
}

func TestN233(t *testing.T) {
}

func TestN234(t *testing.T) {
}

func TestN235(t *testing.T) {
}

func TestN236(t *testing.T) {
}

func TestN237(t *testing.T) {
}

func TestN238(t *testing.T) {
}

func TestN239(t *testing.T) {
}

func TestN240(t *testing.T) {
}

func TestN241(t *testing.T) {
}

func TestN242(t *testing.T) {
}

func TestN243(t *testing.T) {
}

func TestN244(t *testing.T) {
}

func TestN245(t *testing.T) {
}

func TestN246(t *testing.T) {
}

func TestN247(t *testing.T) {
}

func TestN248(t *testing.T) {
}

func TestN249(t *testing.T) {
}

func TestN250(t *testing.T) {
}

func TestN251(t *testing.T) {
}

func TestN252(t *testing.T) {
}

func TestN253(t *testing.T) {
}

func TestN254(t *testing.T) {
}

func TestN255(t *testing.T) {
}

func TestN256(t *testing.T) {
}

func TestN257(t *testing.T) {
}

func TestN258(t *testing.T) {
}

func TestN259(t *testing.T) {
}

func TestN260(t *testing.T) {
}

func TestN261(t *testing.T) {
}

func TestN262(t *testing.T) {
}

func TestN263(t *testing.T) {
}

func TestN264(t *testing.T) {
}

func TestN265(t *testing.T) {
}

func TestN266(t *testing.T) {
}

func TestN267(t *testing.T) {
}

func TestN268(t *testing.T) {
}

func TestN269(t *testing.T) {
}

func TestN270(t *testing.T) {
}

func TestN271(t *testing.T) {
}

func TestN272(t *testing.T) {
}

func TestN273(t *testing.T) {
}

func TestN274(t *testing.T) {
}

func TestN275(t *testing.T) {
}

func TestN276(t *testing.T) {
}

func TestN277(t *testing.T) {
}

func TestN278(t *testing.T) {
}

func TestN279(t *testing.T) {
}

func TestN280(t *testing.T) {
}

func TestN281(t *testing.T) {
}

func TestN282(t *testing.T) {
}

func TestN283(t *testing.T) {
}

func TestN284(t *testing.T) {
}

func TestN285(t *testing.T) {
}

func TestN286(t *testing.T) {
}

func TestN287(t *testing.T) {
}

func TestN288(t *testing.T) {
}

func TestN289(t *testing.T) {
}

func TestN290(t *testing.T) {
}

func TestN291(t *testing.T) {
}

func TestN292(t *testing.T) {
}

func TestN293(t *testing.T) {
}

func TestN294(t *testing.T) {
}

func TestN295(t *testing.T) {
}

func TestN296(t *testing.T) {
}

func TestN297(t *testing.T) {
}

func TestN298(t *testing.T) {
}

func TestN299(t *testing.T) {
}

func TestN300(t *testing.T) {
}
