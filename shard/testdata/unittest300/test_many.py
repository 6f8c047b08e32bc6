"""Written for strobe's partition tests: 300 unittest tests, three of them
failing (test_n007, test_n107, test_n207)."""
import unittest


class TestMany(unittest.TestCase):
    def test_n000(self):
        self.assertNotEqual(0 % 100, 7, "test 0 fails on purpose")

    def test_n001(self):
        self.assertNotEqual(1 % 100, 7, "test 1 fails on purpose")

    def test_n002(self):
        self.assertNotEqual(2 % 100, 7, "test 2 fails on purpose")

    def test_n003(self):
        self.assertNotEqual(3 % 100, 7, "test 3 fails on purpose")

    def test_n004(self):
        self.assertNotEqual(4 % 100, 7, "test 4 fails on purpose")

    def test_n005(self):
        self.assertNotEqual(5 % 100, 7, "test 5 fails on purpose")

    def test_n006(self):
        self.assertNotEqual(6 % 100, 7, "test 6 fails on purpose")

    def test_n007(self):
        self.assertNotEqual(7 % 100, 7, "test 7 fails on purpose")

    def test_n008(self):
        self.assertNotEqual(8 % 100, 7, "test 8 fails on purpose")

    def test_n009(self):
        self.assertNotEqual(9 % 100, 7, "test 9 fails on purpose")

    def test_n010(self):
        self.assertNotEqual(10 % 100, 7, "test 10 fails on purpose")

    def test_n011(self):
        self.assertNotEqual(11 % 100, 7, "test 11 fails on purpose")

    def test_n012(self):
        self.assertNotEqual(12 % 100, 7, "test 12 fails on purpose")

    def test_n013(self):
        self.assertNotEqual(13 % 100, 7, "test 13 fails on purpose")

    def test_n014(self):
        self.assertNotEqual(14 % 100, 7, "test 14 fails on purpose")

    def test_n015(self):
        self.assertNotEqual(15 % 100, 7, "test 15 fails on purpose")

    def test_n016(self):
        self.assertNotEqual(16 % 100, 7, "test 16 fails on purpose")

    def test_n017(self):
        self.assertNotEqual(17 % 100, 7, "test 17 fails on purpose")

    def test_n018(self):
        self.assertNotEqual(18 % 100, 7, "test 18 fails on purpose")

    def test_n019(self):
        self.assertNotEqual(19 % 100, 7, "test 19 fails on purpose")

    def test_n020(self):
        self.assertNotEqual(20 % 100, 7, "test 20 fails on purpose")

    def test_n021(self):
        self.assertNotEqual(21 % 100, 7, "test 21 fails on purpose")

    def test_n022(self):
        self.assertNotEqual(22 % 100, 7, "test 22 fails on purpose")

    def test_n023(self):
        self.assertNotEqual(23 % 100, 7, "test 23 fails on purpose")

    def test_n024(self):
        self.assertNotEqual(24 % 100, 7, "test 24 fails on purpose")

    def test_n025(self):
        self.assertNotEqual(25 % 100, 7, "test 25 fails on purpose")

    def test_n026(self):
        self.assertNotEqual(26 % 100, 7, "test 26 fails on purpose")

    def test_n027(self):
        self.assertNotEqual(27 % 100, 7, "test 27 fails on purpose")

    def test_n028(self):
        self.assertNotEqual(28 % 100, 7, "test 28 fails on purpose")

    def test_n029(self):
        self.assertNotEqual(29 % 100, 7, "test 29 fails on purpose")

    def test_n030(self):
        self.assertNotEqual(30 % 100, 7, "test 30 fails on purpose")

    def test_n031(self):
        self.assertNotEqual(31 % 100, 7, "test 31 fails on purpose")

    def test_n032(self):
        self.assertNotEqual(32 % 100, 7, "test 32 fails on purpose")

    def test_n033(self):
        self.assertNotEqual(33 % 100, 7, "test 33 fails on purpose")

    def test_n034(self):
        self.assertNotEqual(34 % 100, 7, "test 34 fails on purpose")

    def test_n035(self):
        self.assertNotEqual(35 % 100, 7, "test 35 fails on purpose")

    def test_n036(self):
        self.assertNotEqual(36 % 100, 7, "test 36 fails on purpose")

    def test_n037(self):
        self.assertNotEqual(37 % 100, 7, "test 37 fails on purpose")

    def test_n038(self):
        self.assertNotEqual(38 % 100, 7, "test 38 fails on purpose")

    def test_n039(self):
        self.assertNotEqual(39 % 100, 7, "test 39 fails on purpose")

    def test_n040(self):
        self.assertNotEqual(40 % 100, 7, "test 40 fails on purpose")

    def test_n041(self):
        self.assertNotEqual(41 % 100, 7, "test 41 fails on purpose")

    def test_n042(self):
        self.assertNotEqual(42 % 100, 7, "test 42 fails on purpose")

    def test_n043(self):
        self.assertNotEqual(43 % 100, 7, "test 43 fails on purpose")

    def test_n044(self):
        self.assertNotEqual(44 % 100, 7, "test 44 fails on purpose")

    def test_n045(self):
        self.assertNotEqual(45 % 100, 7, "test 45 fails on purpose")

    def test_n046(self):
        self.assertNotEqual(46 % 100, 7, "test 46 fails on purpose")

    def test_n047(self):
        self.assertNotEqual(47 % 100, 7, "test 47 fails on purpose")

    def test_n048(self):
        self.assertNotEqual(48 % 100, 7, "test 48 fails on purpose")

    def test_n049(self):
        self.assertNotEqual(49 % 100, 7, "test 49 fails on purpose")

    def test_n050(self):
        self.assertNotEqual(50 % 100, 7, "test 50 fails on purpose")

    def test_n051(self):
        self.assertNotEqual(51 % 100, 7, "test 51 fails on purpose")

    def test_n052(self):
        self.assertNotEqual(52 % 100, 7, "test 52 fails on purpose")

    def test_n053(self):
        self.assertNotEqual(53 % 100, 7, "test 53 fails on purpose")

    def test_n054(self):
        self.assertNotEqual(54 % 100, 7, "test 54 fails on purpose")

    def test_n055(self):
        self.assertNotEqual(55 % 100, 7, "test 55 fails on purpose")

    def test_n056(self):
        self.assertNotEqual(56 % 100, 7, "test 56 fails on purpose")

    def test_n057(self):
        self.assertNotEqual(57 % 100, 7, "test 57 fails on purpose")

    def test_n058(self):
        self.assertNotEqual(58 % 100, 7, "test 58 fails on purpose")

    def test_n059(self):
        self.assertNotEqual(59 % 100, 7, "test 59 fails on purpose")

    def test_n060(self):
        self.assertNotEqual(60 % 100, 7, "test 60 fails on purpose")

    def test_n061(self):
        self.assertNotEqual(61 % 100, 7, "test 61 fails on purpose")

    def test_n062(self):
        self.assertNotEqual(62 % 100, 7, "test 62 fails on purpose")

    def test_n063(self):
        self.assertNotEqual(63 % 100, 7, "test 63 fails on purpose")

    def test_n064(self):
        self.assertNotEqual(64 % 100, 7, "test 64 fails on purpose")

    def test_n065(self):
        self.assertNotEqual(65 % 100, 7, "test 65 fails on purpose")

    def test_n066(self):
        self.assertNotEqual(66 % 100, 7, "test 66 fails on purpose")

    def test_n067(self):
        self.assertNotEqual(67 % 100, 7, "test 67 fails on purpose")

    def test_n068(self):
        self.assertNotEqual(68 % 100, 7, "test 68 fails on purpose")

    def test_n069(self):
        self.assertNotEqual(69 % 100, 7, "test 69 fails on purpose")

    def test_n070(self):
        self.assertNotEqual(70 % 100, 7, "test 70 fails on purpose")

    def test_n071(self):
        self.assertNotEqual(71 % 100, 7, "test 71 fails on purpose")

    def test_n072(self):
        self.assertNotEqual(72 % 100, 7, "test 72 fails on purpose")

    def test_n073(self):
        self.assertNotEqual(73 % 100, 7, "test 73 fails on purpose")

    def test_n074(self):
        self.assertNotEqual(74 % 100, 7, "test 74 fails on purpose")

    def test_n075(self):
        self.assertNotEqual(75 % 100, 7, "test 75 fails on purpose")

    def test_n076(self):
        self.assertNotEqual(76 % 100, 7, "test 76 fails on purpose")

    def test_n077(self):
        self.assertNotEqual(77 % 100, 7, "test 77 fails on purpose")

    def test_n078(self):
        self.assertNotEqual(78 % 100, 7, "test 78 fails on purpose")

    def test_n079(self):
        self.assertNotEqual(79 % 100, 7, "test 79 fails on purpose")

    def test_n080(self):
        self.assertNotEqual(80 % 100, 7, "test 80 fails on purpose")

    def test_n081(self):
        self.assertNotEqual(81 % 100, 7, "test 81 fails on purpose")

    def test_n082(self):
        self.assertNotEqual(82 % 100, 7, "test 82 fails on purpose")

    def test_n083(self):
        self.assertNotEqual(83 % 100, 7, "test 83 fails on purpose")

    def test_n084(self):
        self.assertNotEqual(84 % 100, 7, "test 84 fails on purpose")

    def test_n085(self):
        self.assertNotEqual(85 % 100, 7, "test 85 fails on purpose")

    def test_n086(self):
        self.assertNotEqual(86 % 100, 7, "test 86 fails on purpose")

    def test_n087(self):
        self.assertNotEqual(87 % 100, 7, "test 87 fails on purpose")

    def test_n088(self):
        self.assertNotEqual(88 % 100, 7, "test 88 fails on purpose")

    def test_n089(self):
        self.assertNotEqual(89 % 100, 7, "test 89 fails on purpose")

    def test_n090(self):
        self.assertNotEqual(90 % 100, 7, "test 90 fails on purpose")

    def test_n091(self):
        self.assertNotEqual(91 % 100, 7, "test 91 fails on purpose")

    def test_n092(self):
        self.assertNotEqual(92 % 100, 7, "test 92 fails on purpose")

    def test_n093(self):
        self.assertNotEqual(93 % 100, 7, "test 93 fails on purpose")

    def test_n094(self):
        self.assertNotEqual(94 % 100, 7, "test 94 fails on purpose")

    def test_n095(self):
        self.assertNotEqual(95 % 100, 7, "test 95 fails on purpose")

    def test_n096(self):
        self.assertNotEqual(96 % 100, 7, "test 96 fails on purpose")

    def test_n097(self):
        self.assertNotEqual(97 % 100, 7, "test 97 fails on purpose")

    def test_n098(self):
        self.assertNotEqual(98 % 100, 7, "test 98 fails on purpose")

    def test_n099(self):
        self.assertNotEqual(99 % 100, 7, "test 99 fails on purpose")

    def test_n100(self):
        self.assertNotEqual(100 % 100, 7, "test 100 fails on purpose")

    def test_n101(self):
        self.assertNotEqual(101 % 100, 7, "test 101 fails on purpose")

    def test_n102(self):
        self.assertNotEqual(102 % 100, 7, "test 102 fails on purpose")

    def test_n103(self):
        self.assertNotEqual(103 % 100, 7, "test 103 fails on purpose")

    def test_n104(self):
        self.assertNotEqual(104 % 100, 7, "test 104 fails on purpose")

    def test_n105(self):
        self.assertNotEqual(105 % 100, 7, "test 105 fails on purpose")

    def test_n106(self):
        self.assertNotEqual(106 % 100, 7, "test 106 fails on purpose")

    def test_n107(self):
        self.assertNotEqual(107 % 100, 7, "test 107 fails on purpose")

    def test_n108(self):
        self.assertNotEqual(108 % 100, 7, "test 108 fails on purpose")

    def test_n109(self):
        self.assertNotEqual(109 % 100, 7, "test 109 fails on purpose")

    def test_n110(self):
        self.assertNotEqual(110 % 100, 7, "test 110 fails on purpose")

    def test_n111(self):
        self.assertNotEqual(111 % 100, 7, "test 111 fails on purpose")

    def test_n112(self):
        self.assertNotEqual(112 % 100, 7, "test 112 fails on purpose")

    def test_n113(self):
        self.assertNotEqual(113 % 100, 7, "test 113 fails on purpose")

    def test_n114(self):
        self.assertNotEqual(114 % 100, 7, "test 114 fails on purpose")

    def test_n115(self):
        self.assertNotEqual(115 % 100, 7, "test 115 fails on purpose")

    def test_n116(self):
        self.assertNotEqual(116 % 100, 7, "test 116 fails on purpose")

    def test_n117(self):
        self.assertNotEqual(117 % 100, 7, "test 117 fails on purpose")

    def test_n118(self):
        self.assertNotEqual(118 % 100, 7, "test 118 fails on purpose")

    def test_n119(self):
        self.assertNotEqual(119 % 100, 7, "test 119 fails on purpose")

    def test_n120(self):
        self.assertNotEqual(120 % 100, 7, "test 120 fails on purpose")

    def test_n121(self):
        self.assertNotEqual(121 % 100, 7, "test 121 fails on purpose")

    def test_n122(self):
        self.assertNotEqual(122 % 100, 7, "test 122 fails on purpose")

    def test_n123(self):
        self.assertNotEqual(123 % 100, 7, "test 123 fails on purpose")

    def test_n124(self):
        self.assertNotEqual(124 % 100, 7, "test 124 fails on purpose")

    def test_n125(self):
        self.assertNotEqual(125 % 100, 7, "test 125 fails on purpose")

    def test_n126(self):
        self.assertNotEqual(126 % 100, 7, "test 126 fails on purpose")

    def test_n127(self):
        self.assertNotEqual(127 % 100, 7, "test 127 fails on purpose")

    def test_n128(self):
        self.assertNotEqual(128 % 100, 7, "test 128 fails on purpose")

    def test_n129(self):
        self.assertNotEqual(129 % 100, 7, "test 129 fails on purpose")

    def test_n130(self):
        self.assertNotEqual(130 % 100, 7, "test 130 fails on purpose")

    def test_n131(self):
        self.assertNotEqual(131 % 100, 7, "test 131 fails on purpose")

    def test_n132(self):
        self.assertNotEqual(132 % 100, 7, "test 132 fails on purpose")

    def test_n133(self):
        self.assertNotEqual(133 % 100, 7, "test 133 fails on purpose")

    def test_n134(self):
        self.assertNotEqual(134 % 100, 7, "test 134 fails on purpose")

    def test_n135(self):
        self.assertNotEqual(135 % 100, 7, "test 135 fails on purpose")

    def test_n136(self):
        self.assertNotEqual(136 % 100, 7, "test 136 fails on purpose")

    def test_n137(self):
        self.assertNotEqual(137 % 100, 7, "test 137 fails on purpose")

    def test_n138(self):
        self.assertNotEqual(138 % 100, 7, "test 138 fails on purpose")

    def test_n139(self):
        self.assertNotEqual(139 % 100, 7, "test 139 fails on purpose")

    def test_n140(self):
        self.assertNotEqual(140 % 100, 7, "test 140 fails on purpose")

    def test_n141(self):
        self.assertNotEqual(141 % 100, 7, "test 141 fails on purpose")

    def test_n142(self):
        self.assertNotEqual(142 % 100, 7, "test 142 fails on purpose")

    def test_n143(self):
        self.assertNotEqual(143 % 100, 7, "test 143 fails on purpose")

    def test_n144(self):
        self.assertNotEqual(144 % 100, 7, "test 144 fails on purpose")

    def test_n145(self):
        self.assertNotEqual(145 % 100, 7, "test 145 fails on purpose")

    def test_n146(self):
        self.assertNotEqual(146 % 100, 7, "test 146 fails on purpose")

    def test_n147(self):
        self.assertNotEqual(147 % 100, 7, "test 147 fails on purpose")

    def test_n148(self):
        self.assertNotEqual(148 % 100, 7, "test 148 fails on purpose")

    def test_n149(self):
        self.assertNotEqual(149 % 100, 7, "test 149 fails on purpose")

    def test_n150(self):
        self.assertNotEqual(150 % 100, 7, "test 150 fails on purpose")

    def test_n151(self):
        self.assertNotEqual(151 % 100, 7, "test 151 fails on purpose")

    def test_n152(self):
        self.assertNotEqual(152 % 100, 7, "test 152 fails on purpose")

    def test_n153(self):
        self.assertNotEqual(153 % 100, 7, "test 153 fails on purpose")

    def test_n154(self):
        self.assertNotEqual(154 % 100, 7, "test 154 fails on purpose")

    def test_n155(self):
        self.assertNotEqual(155 % 100, 7, "test 155 fails on purpose")

    def test_n156(self):
        self.assertNotEqual(156 % 100, 7, "test 156 fails on purpose")

    def test_n157(self):
        self.assertNotEqual(157 % 100, 7, "test 157 fails on purpose")

    def test_n158(self):
        self.assertNotEqual(158 % 100, 7, "test 158 fails on purpose")

    def test_n159(self):
        self.assertNotEqual(159 % 100, 7, "test 159 fails on purpose")

    def test_n160(self):
        self.assertNotEqual(160 % 100, 7, "test 160 fails on purpose")

    def test_n161(self):
        self.assertNotEqual(161 % 100, 7, "test 161 fails on purpose")

    def test_n162(self):
        self.assertNotEqual(162 % 100, 7, "test 162 fails on purpose")

    def test_n163(self):
        self.assertNotEqual(163 % 100, 7, "test 163 fails on purpose")

    def test_n164(self):
        self.assertNotEqual(164 % 100, 7, "test 164 fails on purpose")

    def test_n165(self):
        self.assertNotEqual(165 % 100, 7, "test 165 fails on purpose")

    def test_n166(self):
        self.assertNotEqual(166 % 100, 7, "test 166 fails on purpose")

    def test_n167(self):
        self.assertNotEqual(167 % 100, 7, "test 167 fails on purpose")

    def test_n168(self):
        self.assertNotEqual(168 % 100, 7, "test 168 fails on purpose")

    def test_n169(self):
        self.assertNotEqual(169 % 100, 7, "test 169 fails on purpose")

    def test_n170(self):
        self.assertNotEqual(170 % 100, 7, "test 170 fails on purpose")

    def test_n171(self):
        self.assertNotEqual(171 % 100, 7, "test 171 fails on purpose")

    def test_n172(self):
        self.assertNotEqual(172 % 100, 7, "test 172 fails on purpose")

    def test_n173(self):
        self.assertNotEqual(173 % 100, 7, "test 173 fails on purpose")

    def test_n174(self):
        self.assertNotEqual(174 % 100, 7, "test 174 fails on purpose")

    def test_n175(self):
        self.assertNotEqual(175 % 100, 7, "test 175 fails on purpose")

    def test_n176(self):
        self.assertNotEqual(176 % 100, 7, "test 176 fails on purpose")

    def test_n177(self):
        self.assertNotEqual(177 % 100, 7, "test 177 fails on purpose")

    def test_n178(self):
        self.assertNotEqual(178 % 100, 7, "test 178 fails on purpose")

    def test_n179(self):
        self.assertNotEqual(179 % 100, 7, "test 179 fails on purpose")

    def test_n180(self):
        self.assertNotEqual(180 % 100, 7, "test 180 fails on purpose")

    def test_n181(self):
        self.assertNotEqual(181 % 100, 7, "test 181 fails on purpose")

    def test_n182(self):
        self.assertNotEqual(182 % 100, 7, "test 182 fails on purpose")

    def test_n183(self):
        self.assertNotEqual(183 % 100, 7, "test 183 fails on purpose")

    def test_n184(self):
        self.assertNotEqual(184 % 100, 7, "test 184 fails on purpose")

    def test_n185(self):
        self.assertNotEqual(185 % 100, 7, "test 185 fails on purpose")

    def test_n186(self):
        self.assertNotEqual(186 % 100, 7, "test 186 fails on purpose")

    def test_n187(self):
        self.assertNotEqual(187 % 100, 7, "test 187 fails on purpose")

    def test_n188(self):
        self.assertNotEqual(188 % 100, 7, "test 188 fails on purpose")

    def test_n189(self):
        self.assertNotEqual(189 % 100, 7, "test 189 fails on purpose")

    def test_n190(self):
        self.assertNotEqual(190 % 100, 7, "test 190 fails on purpose")

    def test_n191(self):
        self.assertNotEqual(191 % 100, 7, "test 191 fails on purpose")

    def test_n192(self):
        self.assertNotEqual(192 % 100, 7, "test 192 fails on purpose")

    def test_n193(self):
        self.assertNotEqual(193 % 100, 7, "test 193 fails on purpose")

    def test_n194(self):
        self.assertNotEqual(194 % 100, 7, "test 194 fails on purpose")

    def test_n195(self):
        self.assertNotEqual(195 % 100, 7, "test 195 fails on purpose")

    def test_n196(self):
        self.assertNotEqual(196 % 100, 7, "test 196 fails on purpose")

    def test_n197(self):
        self.assertNotEqual(197 % 100, 7, "test 197 fails on purpose")

    def test_n198(self):
        self.assertNotEqual(198 % 100, 7, "test 198 fails on purpose")

    def test_n199(self):
        self.assertNotEqual(199 % 100, 7, "test 199 fails on purpose")

    def test_n200(self):
        self.assertNotEqual(200 % 100, 7, "test 200 fails on purpose")

    def test_n201(self):
        self.assertNotEqual(201 % 100, 7, "test 201 fails on purpose")

    def test_n202(self):
        self.assertNotEqual(202 % 100, 7, "test 202 fails on purpose")

    def test_n203(self):
        self.assertNotEqual(203 % 100, 7, "test 203 fails on purpose")

    def test_n204(self):
        self.assertNotEqual(204 % 100, 7, "test 204 fails on purpose")

    def test_n205(self):
        self.assertNotEqual(205 % 100, 7, "test 205 fails on purpose")

    def test_n206(self):
        self.assertNotEqual(206 % 100, 7, "test 206 fails on purpose")

    def test_n207(self):
        self.assertNotEqual(207 % 100, 7, "test 207 fails on purpose")

    def test_n208(self):
        self.assertNotEqual(208 % 100, 7, "test 208 fails on purpose")

    def test_n209(self):
        self.assertNotEqual(209 % 100, 7, "test 209 fails on purpose")

    def test_n210(self):
        self.assertNotEqual(210 % 100, 7, "test 210 fails on purpose")

    def test_n211(self):
        self.assertNotEqual(211 % 100, 7, "test 211 fails on purpose")

    def test_n212(self):
        self.assertNotEqual(212 % 100, 7, "test 212 fails on purpose")

    def test_n213(self):
        self.assertNotEqual(213 % 100, 7, "test 213 fails on purpose")

    def test_n214(self):
        self.assertNotEqual(214 % 100, 7, "test 214 fails on purpose")

    def test_n215(self):
        self.assertNotEqual(215 % 100, 7, "test 215 fails on purpose")

    def test_n216(self):
        self.assertNotEqual(216 % 100, 7, "test 216 fails on purpose")

    def test_n217(self):
        self.assertNotEqual(217 % 100, 7, "test 217 fails on purpose")

    def test_n218(self):
        self.assertNotEqual(218 % 100, 7, "test 218 fails on purpose")

    def test_n219(self):
        self.assertNotEqual(219 % 100, 7, "test 219 fails on purpose")

    def test_n220(self):
        self.assertNotEqual(220 % 100, 7, "test 220 fails on purpose")

    def test_n221(self):
        self.assertNotEqual(221 % 100, 7, "test 221 fails on purpose")

    def test_n222(self):
        self.assertNotEqual(222 % 100, 7, "test 222 fails on purpose")

    def test_n223(self):
        self.assertNotEqual(223 % 100, 7, "test 223 fails on purpose")

    def test_n224(self):
        self.assertNotEqual(224 % 100, 7, "test 224 fails on purpose")

    def test_n225(self):
        self.assertNotEqual(225 % 100, 7, "test 225 fails on purpose")

    def test_n226(self):
        self.assertNotEqual(226 % 100, 7, "test 226 fails on purpose")

    def test_n227(self):
        self.assertNotEqual(227 % 100, 7, "test 227 fails on purpose")

    def test_n228(self):
        self.assertNotEqual(228 % 100, 7, "test 228 fails on purpose")

    def test_n229(self):
        self.assertNotEqual(229 % 100, 7, "test 229 fails on purpose")

    def test_n230(self):
        self.assertNotEqual(230 % 100, 7, "test 230 fails on purpose")

    def test_n231(self):
        self.assertNotEqual(231 % 100, 7, "test 231 fails on purpose")

    def test_n232(self):
        self.assertNotEqual(232 % 100, 7, "test 232 fails on purpose")

    def test_n233(self):
        self.assertNotEqual(233 % 100, 7, "test 233 fails on purpose")

    def test_n234(self):
        self.assertNotEqual(234 % 100, 7, "test 234 fails on purpose")

    def test_n235(self):
        self.assertNotEqual(235 % 100, 7, "test 235 fails on purpose")

    def test_n236(self):
        self.assertNotEqual(236 % 100, 7, "test 236 fails on purpose")

    def test_n237(self):
        self.assertNotEqual(237 % 100, 7, "test 237 fails on purpose")

    def test_n238(self):
        self.assertNotEqual(238 % 100, 7, "test 238 fails on purpose")

    def test_n239(self):
        self.assertNotEqual(239 % 100, 7, "test 239 fails on purpose")

    def test_n240(self):
        self.assertNotEqual(240 % 100, 7, "test 240 fails on purpose")

    def test_n241(self):
        self.assertNotEqual(241 % 100, 7, "test 241 fails on purpose")

    def test_n242(self):
        self.assertNotEqual(242 % 100, 7, "test 242 fails on purpose")

    def test_n243(self):
        self.assertNotEqual(243 % 100, 7, "test 243 fails on purpose")

    def test_n244(self):
        self.assertNotEqual(244 % 100, 7, "test 244 fails on purpose")

    def test_n245(self):
        self.assertNotEqual(245 % 100, 7, "test 245 fails on purpose")

    def test_n246(self):
        self.assertNotEqual(246 % 100, 7, "test 246 fails on purpose")

    def test_n247(self):
        self.assertNotEqual(247 % 100, 7, "test 247 fails on purpose")

    def test_n248(self):
        self.assertNotEqual(248 % 100, 7, "test 248 fails on purpose")

    def test_n249(self):
        self.assertNotEqual(249 % 100, 7, "test 249 fails on purpose")

    def test_n250(self):
        self.assertNotEqual(250 % 100, 7, "test 250 fails on purpose")

    def test_n251(self):
        self.assertNotEqual(251 % 100, 7, "test 251 fails on purpose")

    def test_n252(self):
        self.assertNotEqual(252 % 100, 7, "test 252 fails on purpose")

    def test_n253(self):
        self.assertNotEqual(253 % 100, 7, "test 253 fails on purpose")

    def test_n254(self):
        self.assertNotEqual(254 % 100, 7, "test 254 fails on purpose")

    def test_n255(self):
        self.assertNotEqual(255 % 100, 7, "test 255 fails on purpose")

    def test_n256(self):
        self.assertNotEqual(256 % 100, 7, "test 256 fails on purpose")

    def test_n257(self):
        self.assertNotEqual(257 % 100, 7, "test 257 fails on purpose")

    def test_n258(self):
        self.assertNotEqual(258 % 100, 7, "test 258 fails on purpose")

    def test_n259(self):
        self.assertNotEqual(259 % 100, 7, "test 259 fails on purpose")

    def test_n260(self):
        self.assertNotEqual(260 % 100, 7, "test 260 fails on purpose")

    def test_n261(self):
        self.assertNotEqual(261 % 100, 7, "test 261 fails on purpose")

    def test_n262(self):
        self.assertNotEqual(262 % 100, 7, "test 262 fails on purpose")

    def test_n263(self):
        self.assertNotEqual(263 % 100, 7, "test 263 fails on purpose")

    def test_n264(self):
        self.assertNotEqual(264 % 100, 7, "test 264 fails on purpose")

    def test_n265(self):
        self.assertNotEqual(265 % 100, 7, "test 265 fails on purpose")

    def test_n266(self):
        self.assertNotEqual(266 % 100, 7, "test 266 fails on purpose")

    def test_n267(self):
        self.assertNotEqual(267 % 100, 7, "test 267 fails on purpose")

    def test_n268(self):
        self.assertNotEqual(268 % 100, 7, "test 268 fails on purpose")

    def test_n269(self):
        self.assertNotEqual(269 % 100, 7, "test 269 fails on purpose")

    def test_n270(self):
        self.assertNotEqual(270 % 100, 7, "test 270 fails on purpose")

    def test_n271(self):
        self.assertNotEqual(271 % 100, 7, "test 271 fails on purpose")

    def test_n272(self):
        self.assertNotEqual(272 % 100, 7, "test 272 fails on purpose")

    def test_n273(self):
        self.assertNotEqual(273 % 100, 7, "test 273 fails on purpose")

    def test_n274(self):
        self.assertNotEqual(274 % 100, 7, "test 274 fails on purpose")

    def test_n275(self):
        self.assertNotEqual(275 % 100, 7, "test 275 fails on purpose")

    def test_n276(self):
        self.assertNotEqual(276 % 100, 7, "test 276 fails on purpose")

    def test_n277(self):
        self.assertNotEqual(277 % 100, 7, "test 277 fails on purpose")

    def test_n278(self):
        self.assertNotEqual(278 % 100, 7, "test 278 fails on purpose")

    def test_n279(self):
        self.assertNotEqual(279 % 100, 7, "test 279 fails on purpose")

    def test_n280(self):
        self.assertNotEqual(280 % 100, 7, "test 280 fails on purpose")

    def test_n281(self):
        self.assertNotEqual(281 % 100, 7, "test 281 fails on purpose")

    def test_n282(self):
        self.assertNotEqual(282 % 100, 7, "test 282 fails on purpose")

    def test_n283(self):
        self.assertNotEqual(283 % 100, 7, "test 283 fails on purpose")

    def test_n284(self):
        self.assertNotEqual(284 % 100, 7, "test 284 fails on purpose")

    def test_n285(self):
        self.assertNotEqual(285 % 100, 7, "test 285 fails on purpose")

    def test_n286(self):
        self.assertNotEqual(286 % 100, 7, "test 286 fails on purpose")

    def test_n287(self):
        self.assertNotEqual(287 % 100, 7, "test 287 fails on purpose")

    def test_n288(self):
        self.assertNotEqual(288 % 100, 7, "test 288 fails on purpose")

    def test_n289(self):
        self.assertNotEqual(289 % 100, 7, "test 289 fails on purpose")

    def test_n290(self):
        self.assertNotEqual(290 % 100, 7, "test 290 fails on purpose")

    def test_n291(self):
        self.assertNotEqual(291 % 100, 7, "test 291 fails on purpose")

    def test_n292(self):
        self.assertNotEqual(292 % 100, 7, "test 292 fails on purpose")

    def test_n293(self):
        self.assertNotEqual(293 % 100, 7, "test 293 fails on purpose")

    def test_n294(self):
        self.assertNotEqual(294 % 100, 7, "test 294 fails on purpose")

    def test_n295(self):
        self.assertNotEqual(295 % 100, 7, "test 295 fails on purpose")

    def test_n296(self):
        self.assertNotEqual(296 % 100, 7, "test 296 fails on purpose")

    def test_n297(self):
        self.assertNotEqual(297 % 100, 7, "test 297 fails on purpose")

    def test_n298(self):
        self.assertNotEqual(298 % 100, 7, "test 298 fails on purpose")

    def test_n299(self):
        self.assertNotEqual(299 % 100, 7, "test 299 fails on purpose")
