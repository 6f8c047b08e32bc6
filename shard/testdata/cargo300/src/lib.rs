//! 300 tests for strobe's partition tests; three of them fail (7, 107, 207).

#[cfg(test)]
mod tests {
    #[test]
    fn n001() {
    }

    #[test]
    fn n002() {
    }

    #[test]
    fn n003() {
    }

    #[test]
    fn n004() {
    }

    #[test]
    fn n005() {
    }

    #[test]
    fn n006() {
    }

    #[test]
    fn n007() {
        assert_eq!(7, 0, "test 7 fails on purpose");
    }

    #[test]
    fn n008() {
    }

    #[test]
    fn n009() {
    }

    #[test]
    fn n010() {
    }

    #[test]
    fn n011() {
    }

    #[test]
    fn n012() {
    }

    #[test]
    fn n013() {
    }

    #[test]
    fn n014() {
    }

    #[test]
    fn n015() {
    }

    #[test]
    fn n016() {
    }

    #[test]
    fn n017() {
    }

    #[test]
    fn n018() {
    }

    #[test]
    fn n019() {
    }

    #[test]
    fn n020() {
    }

    #[test]
    fn n021() {
    }

    #[test]
    fn n022() {
    }

    #[test]
    fn n023() {
    }

    #[test]
    fn n024() {
    }

    #[test]
    fn n025() {
    }

    #[test]
    fn n026() {
    }

    #[test]
    fn n027() {
    }

    #[test]
    fn n028() {
    }

    #[test]
    fn n029() {
    }

    #[test]
    fn n030() {
    }

    #[test]
    fn n031() {
    }

    #[test]
    fn n032() {
    }

    #[test]
    fn n033() {
    }

    #[test]
    fn n034() {
    }

    #[test]
    fn n035() {
    }

    #[test]
    fn n036() {
    }

    #[test]
    fn n037() {
    }

    #[test]
    fn n038() {
    }

    #[test]
    fn n039() {
    }

    #[test]
    fn n040() {
    }

    #[test]
    fn n041() {
    }

    #[test]
    fn n042() {
    }

    #[test]
    fn n043() {
    }

    #[test]
    fn n044() {
    }

    #[test]
    fn n045() {
    }

    #[test]
    fn n046() {
    }

    #[test]
    fn n047() {
    }

    #[test]
    fn n048() {
    }

    #[test]
    fn n049() {
    }

    #[test]
    fn n050() {
    }

    #[test]
    fn n051() {
    }

    #[test]
    fn n052() {
    }

    #[test]
    fn n053() {
    }

    #[test]
    fn n054() {
    }

    #[test]
    fn n055() {
    }

    #[test]
    fn n056() {
    }

    #[test]
    fn n057() {
    }

    #[test]
    fn n058() {
    }

    #[test]
    fn n059() {
    }

    #[test]
    fn n060() {
    }

    #[test]
    fn n061() {
    }

    #[test]
    fn n062() {
    }

    #[test]
    fn n063() {
    }

    #[test]
    fn n064() {
    }

    #[test]
    fn n065() {
    }

    #[test]
    fn n066() {
    }

    #[test]
    fn n067() {
    }

    #[test]
    fn n068() {
    }

    #[test]
    fn n069() {
    }

    #[test]
    fn n070() {
    }

    #[test]
    fn n071() {
    }

    #[test]
    fn n072() {
    }

    #[test]
    fn n073() {
    }

    #[test]
    fn n074() {
    }

    #[test]
    fn n075() {
    }

    #[test]
    fn n076() {
    }

    #[test]
    fn n077() {
    }

    #[test]
    fn n078() {
    }

    #[test]
    fn n079() {
    }

    #[test]
    fn n080() {
    }

    #[test]
    fn n081() {
    }

    #[test]
    fn n082() {
    }

    #[test]
    fn n083() {
    }

    #[test]
    fn n084() {
    }

    #[test]
    fn n085() {
    }

    #[test]
    fn n086() {
    }

    #[test]
    fn n087() {
    }

    #[test]
    fn n088() {
    }

    #[test]
    fn n089() {
    }

    #[test]
    fn n090() {
    }

    #[test]
    fn n091() {
    }

    #[test]
    fn n092() {
    }

    #[test]
    fn n093() {
    }

    #[test]
    fn n094() {
    }

    #[test]
    fn n095() {
    }

    #[test]
    fn n096() {
    }

    #[test]
    fn n097() {
    }

    #[test]
    fn n098() {
    }

    #[test]
    fn n099() {
    }

    #[test]
    fn n100() {
    }

    #[test]
    fn n101() {
    }

    #[test]
    fn n102() {
    }

    #[test]
    fn n103() {
    }

    #[test]
    fn n104() {
    }

    #[test]
    fn n105() {
    }

    #[test]
    fn n106() {
    }

    #[test]
    fn n107() {
        assert_eq!(107, 0, "test 107 fails on purpose");
    }

    #[test]
    fn n108() {
    }

    #[test]
    fn n109() {
    }

    #[test]
    fn n110() {
    }

    #[test]
    fn n111() {
    }

    #[test]
    fn n112() {
    }

    #[test]
    fn n113() {
    }

    #[test]
    fn n114() {
    }

    #[test]
    fn n115() {
    }

    #[test]
    fn n116() {
    }

    #[test]
    fn n117() {
    }

    #[test]
    fn n118() {
    }

    #[test]
    fn n119() {
    }

    #[test]
    fn n120() {
    }

    #[test]
    fn n121() {
    }

    #[test]
    fn n122() {
    }

    #[test]
    fn n123() {
    }

    #[test]
    fn n124() {
    }

    #[test]
    fn n125() {
    }

    #[test]
    fn n126() {
    }

    #[test]
    fn n127() {
    }

    #[test]
    fn n128() {
    }

    #[test]
    fn n129() {
    }

    #[test]
    fn n130() {
    }

    #[test]
    fn n131() {
    }

    #[test]
    fn n132() {
    }

    #[test]
    fn n133() {
    }

    #[test]
    fn n134() {
    }

    #[test]
    fn n135() {
    }

    #[test]
    fn n136() {
    }

    #[test]
    fn n137() {
    }

    #[test]
    fn n138() {
    }

    #[test]
    fn n139() {
    }

    #[test]
    fn n140() {
    }

    #[test]
    fn n141() {
    }

    #[test]
    fn n142() {
    }

    #[test]
    fn n143() {
    }

    #[test]
    fn n144() {
    }

    #[test]
    fn n145() {
    }

    #[test]
    fn n146() {
    }

    #[test]
    fn n147() {
    }

    #[test]
    fn n148() {
    }

    #[test]
    fn n149() {
    }

    #[test]
    fn n150() {
    }

    #[test]
    fn n151() {
    }

    #[test]
    fn n152() {
    }

    #[test]
    fn n153() {
    }

    #[test]
    fn n154() {
    }

    #[test]
    fn n155() {
    }

    #[test]
    fn n156() {
    }

    #[test]
    fn n157() {
    }

    #[test]
    fn n158() {
    }

    #[test]
    fn n159() {
    }

    #[test]
    fn n160() {
    }

    #[test]
    fn n161() {
    }

    #[test]
    fn n162() {
    }

    #[test]
    fn n163() {
    }

    #[test]
    fn n164() {
    }

    #[test]
    fn n165() {
    }

    #[test]
    fn n166() {
    }

    #[test]
    fn n167() {
    }

    #[test]
    fn n168() {
    }

    #[test]
    fn n169() {
    }

    #[test]
    fn n170() {
    }

    #[test]
    fn n171() {
    }

    #[test]
    fn n172() {
    }

    #[test]
    fn n173() {
    }

    #[test]
    fn n174() {
    }

    #[test]
    fn n175() {
    }

    #[test]
    fn n176() {
    }

    #[test]
    fn n177() {
    }

    #[test]
    fn n178() {
    }

    #[test]
    fn n179() {
    }

    #[test]
    fn n180() {
    }

    #[test]
    fn n181() {
    }

    #[test]
    fn n182() {
    }

    #[test]
    fn n183() {
    }

    #[test]
    fn n184() {
    }

    #[test]
    fn n185() {
    }

    #[test]
    fn n186() {
    }

    #[test]
    fn n187() {
    }

    #[test]
    fn n188() {
    }

    #[test]
    fn n189() {
    }

    #[test]
    fn n190() {
    }

    #[test]
    fn n191() {
    }

    #[test]
    fn n192() {
    }

    #[test]
    fn n193() {
    }

    #[test]
    fn n194() {
    }

    #[test]
    fn n195() {
    }

    #[test]
    fn n196() {
    }

    #[test]
    fn n197() {
    }

    #[test]
    fn n198() {
    }

    #[test]
    fn n199() {
    }

    #[test]
    fn n200() {
    }

    #[test]
    fn n201() {
    }

    #[test]
    fn n202() {
    }

    #[test]
    fn n203() {
    }

    #[test]
    fn n204() {
    }

    #[test]
    fn n205() {
    }

    #[test]
    fn n206() {
    }

    #[test]
    fn n207() {
        assert_eq!(207, 0, "test 207 fails on purpose");
    }

    #[test]
    fn n208() {
    }

    #[test]
    fn n209() {
    }

    #[test]
    fn n210() {
    }

    #[test]
    fn n211() {
    }

    #[test]
    fn n212() {
    }

    #[test]
    fn n213() {
    }

    #[test]
    fn n214() {
    }

    #[test]
    fn n215() {
    }

    #[test]
    fn n216() {
    }

    #[test]
    fn n217() {
    }

    #[test]
    fn n218() {
    }

    #[test]
    fn n219() {
    }

    #[test]
    fn n220() {
    }

    #[test]
    fn n221() {
    }

    #[test]
    fn n222() {
    }

    #[test]
    fn n223() {
    }

    #[test]
    fn n224() {
    }

    #[test]
    fn n225() {
    }

    #[test]
    fn n226() {
    }

    #[test]
    fn n227() {
    }

    #[test]
    fn n228() {
    }

    #[test]
    fn n229() {
    }

    #[test]
    fn n230() {
    }

    #[test]
    fn n231() {
    }

    #[test]
    fn n232() {
    }

    #[test]
    fn n233() {
    }

    #[test]
    fn n234() {
    }

    #[test]
    fn n235() {
    }

    #[test]
    fn n236() {
    }

    #[test]
    fn n237() {
    }

    #[test]
    fn n238() {
    }

    #[test]
    fn n239() {
    }

    #[test]
    fn n240() {
    }

    #[test]
    fn n241() {
    }

    #[test]
    fn n242() {
    }

    #[test]
    fn n243() {
    }

    #[test]
    fn n244() {
    }

    #[test]
    fn n245() {
    }

    #[test]
    fn n246() {
    }

    #[test]
    fn n247() {
    }

    #[test]
    fn n248() {
    }

    #[test]
    fn n249() {
    }

    #[test]
    fn n250() {
    }

    #[test]
    fn n251() {
    }

    #[test]
    fn n252() {
    }

    #[test]
    fn n253() {
    }

    #[test]
    fn n254() {
    }

    #[test]
    fn n255() {
    }

    #[test]
    fn n256() {
    }

    #[test]
    fn n257() {
    }

    #[test]
    fn n258() {
    }

    #[test]
    fn n259() {
    }

    #[test]
    fn n260() {
    }

    #[test]
    fn n261() {
    }

    #[test]
    fn n262() {
    }

    #[test]
    fn n263() {
    }

    #[test]
    fn n264() {
    }

    #[test]
    fn n265() {
    }

    #[test]
    fn n266() {
    }

    #[test]
    fn n267() {
    }

    #[test]
    fn n268() {
    }

    #[test]
    fn n269() {
    }

    #[test]
    fn n270() {
    }

    #[test]
    fn n271() {
    }

    #[test]
    fn n272() {
    }

    #[test]
    fn n273() {
    }

    #[test]
    fn n274() {
    }

    #[test]
    fn n275() {
    }

    #[test]
    fn n276() {
    }

    #[test]
    fn n277() {
    }

    #[test]
    fn n278() {
    }

    #[test]
    fn n279() {
    }

    #[test]
    fn n280() {
    }

    #[test]
    fn n281() {
    }

    #[test]
    fn n282() {
    }

    #[test]
    fn n283() {
    }

    #[test]
    fn n284() {
    }

    #[test]
    fn n285() {
    }

    #[test]
    fn n286() {
    }

    #[test]
    fn n287() {
    }

    #[test]
    fn n288() {
    }

    #[test]
    fn n289() {
    }

    #[test]
    fn n290() {
    }

    #[test]
    fn n291() {
    }

    #[test]
    fn n292() {
    }

    #[test]
    fn n293() {
    }

    #[test]
    fn n294() {
    }

    #[test]
    fn n295() {
    }

    #[test]
    fn n296() {
    }

    #[test]
    fn n297() {
    }

    #[test]
    fn n298() {
    }

    #[test]
    fn n299() {
    }

    #[test]
    fn n300() {
    }

}
