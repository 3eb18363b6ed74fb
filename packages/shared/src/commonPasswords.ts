/**
 * The commonest passwords, lower-cased: the top of the public leaked-password lists, international and Chinese
 * (123456, 5201314, woaini1314, qq123456, 1qaz2wsx...), with the keyboard walks and their usual variants. A password
 * is compared lower-cased, so `Password123` and `PASSWORD123` are refused with `password123`. Entries shorter than
 * eight characters or of one kind of character would fail the length and mix rules anyway: they are here so that
 * the reply says the real reason, that the password is too common.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  `
123456 123456789 12345678 12345 1234567 1234567890 123123 111111 000000 654321 666666 888888 121212 112233
123321 159753 987654321 123654 147258 147258369 741852963 963852741 789456123 123456789a 0123456789 1122334455
11223344 12341234 12344321 123123123 123456123 123456123456 123321123 110110110 31415926 00000000 11111111
22222222 33333333 44444444 55555555 66666666 77777777 88888888 99999999 111111111 000000000 999999999
1111111111 0000000000 88888888888 87654321 12121212 13131313 123654789 147852369 159357 159753123 987654
321321 5201314 1314520 5211314 1314521 520520 520520520 5201314520 1314520520 7758521 7758258 584520 201314
521521 1314 5201314a 1314woaini 520woaini password password1 password12 password123 password1234 passw0rd
p@ssw0rd p@ssword pa$$word pa$$w0rd p@$$w0rd p@$$word passwd password! password@123 password#1 pass1234
pass123 pass12345 mypassword mypass123 letmein letmein1 letmein123 welcome welcome1 welcome123 welcome@123
iloveyou iloveyou1 iloveyou2 iloveu iloveyou123 trustno1 trustno123 admin admin1 admin12 admin123 admin1234
admin12345 admin@123 admin#123 administrator root root123 root1234 toor test test1 test123 test1234 test12345
guest guest123 user user123 demo demo123 default changeme changeme1 secret secret1 secret123 master master1
master123 login login123 access access1 hello hello1 hello123 hello1234 helloworld monkey monkey1 monkey123
dragon dragon1 dragon123 shadow shadow1 sunshine sunshine1 princess princess1 football football1 baseball
baseball1 basketball soccer hockey superman superman1 batman batman1 spiderman michael michael1 jordan
jordan23 jennifer charlie charlie1 freedom freedom1 whatever qazwsx qazwsxedc qazwsx123 qazxsw qwerty qwerty1
qwerty12 qwerty123 qwerty1234 qwertyui qwertyuiop qwer1234 1234qwer qwert12345 12345qwert qwe123 123qwe
qwe123456 qwe123qwe qweasd qweasd123 123qweasd qweasdzxc qweasdzxc123 1qaz2wsx 1qaz2wsx3edc 1qazxsw2 1qaz@wsx
1qaz!qaz zaq12wsx zaq1xsw2 zaq123 !qaz2wsx 2wsx3edc 3edc4rfv 1q2w3e 1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y q1w2e3r4
q1w2e3r4t5 q1w2e3 a1s2d3f4 a1b2c3 a1b2c3d4 a1b2c3d4e5 1a2b3c4d z1x2c3v4 1z2x3c4v asdf1234 1234asdf asdfgh
asdfghjk asdfghjkl asdfasdf asd123 asd123456 123asd zxcvbn zxcvbnm zxcvbnm123 zxc123 zxc123456 123zxc zxcv1234
abc123 abc1234 abc12345 abc123456 abcd1234 abcd123456 1234abcd 123abc 123456abc abcdefg abcdefgh abcdef abcabc
abc123abc aaaaaaaa aaaaaa aa123456 aa12345678 a123456 a1234567 a12345678 a123456789 a11111 a111111 a000000
a5201314 abc5201314 123456a 123456aa 123456aaa 123456q 123456qq qq123456 qq12345678 qq5201314 qwe5201314
woaini woaini1314 woaini520 woaini123 woaini1234 woaini5201314 woaini521 iloveyou520 loveyou love1314 love520
love123 lovely loveme loveme1 caonima nimabi wangyang wangjian wangwei wangjing wanglei wangyu zhangwei
zhangjie zhanglei zhangyu zhangsan lisi wangwu liuyang liwei lijie chenchen xiaoming xiaohong xiaoyu huang123
zhang123 wang123 li123456 liu123456 chen123456 zhang123456 wang123456 yang123456 zhao123456 woshishui
woaiwojia wodemima mima123 mima1234 mima123456 baidu123 taobao123 qq123 qq1234 qqqqqq qqqqqqqq wwwwww 1q1q1q1q
1a1a1a1a a1a1a1a1 q1q1q1q1 aaa111 aaa123 aaa123456 ab123456 abc666 abc888 aini1314 ai1314 dearbook xiazhili
happy123 happy888 tiantian sunshine123 computer computer1 internet samsung samsung1 apple123 google google123
facebook linkedin microsoft windows windows7 iphone huawei xiaomi starwars pokemon naruto ninja killer hunter
hunter2 ranger buster tigger ginger pepper cookie chicken cheese banana orange summer winter spring autumn
august september october november december january february harley mustang corvette ferrari porsche mercedes
yankees liverpool arsenal chelsea barcelona madrid manutd lakers cowboys eagles steelers packers thunder
matrix merlin silver golden diamond crystal flower purple yellow violet ashley daniel robert thomas jessica
nicole andrew joshua matthew anthony amanda justin william george hannah taylor austin maggie biteme fuckyou
fuckyou1 asshole bigdick 696969 6969 access14 azerty azerty123 qwertz qwertz123 1qay2wsx 1234qwerasdf qwerasdf
qwerasdfzxcv !@#$%^&* !@#$%^ 1234!@#$ !qaz@wsx #edc4rfv q1w2e3r4! p@ss1234 p@ss123 pass@123 pass@1234 pass#123
admin!@# admin@1234 root@123 test@123 abc@123 abc!123 qwe!@# qwe!@#123 123!@#qwe 123qwe!@# zaq!2wsx 1qaz#edc
1qaz2wsx! abc#123 a123456! 5201314! woaini@1314 password2 password3 password11 password01 password99
password2020 password2021 password2022 password2023 password2024 password2025 admin2020 admin2021 admin2022
admin2023 admin2024 admin2025 summer2024 winter2024 spring2024 qwerty2024 welcome2024 changeme123 temp123
temp1234 temppass newpass newpass123 mypass mypassword1 nopassword blahblah whatever1 asdfqwer zxcvasdf qazqaz
qaz123 qaz123456 wsx123 edc123 rfv123 147852 258369 369258 852456 456852 246810 135790 13579 2468 13579135
abcdefg1 a1b2c3d4! 1a2s3d4f 1q2w3e4 12qwaszx 12qwas 1qw23e 1qw2 qw12 qw123456 qwe12345 qwert123 qwerty12345
zxcv123 zxcvb123 zaqxsw zaq123wsx xsw21qaz 2wsx1qaz 4rfv3edc abcd@1234 aa123456789 aa111111 aa000000 aa112233
passw0rd! password1! admin123!
`
    .split(/\s+/)
    .filter(Boolean),
);
