graph [
  name "karate"
  node [
    id 0
    label "member_0"
    club "Mr. Hi"
  ]
  node [
    id 1
    label "member_1"
    club "Mr. Hi"
  ]
  node [
    id 2
    label "member_2"
    club "Mr. Hi"
  ]
  node [
    id 3
    label "member_3"
    club "Mr. Hi"
  ]
  node [
    id 4
    label "member_4"
    club "Mr. Hi"
  ]
  node [
    id 5
    label "member_5"
    club "Mr. Hi"
  ]
  node [
    id 6
    label "member_6"
    club "Mr. Hi"
  ]
  node [
    id 7
    label "member_7"
    club "Mr. Hi"
  ]
  node [
    id 8
    label "member_8"
    club "Mr. Hi"
  ]
  node [
    id 9
    label "member_9"
    club "Officer"
  ]
  node [
    id 10
    label "member_10"
    club "Mr. Hi"
  ]
  node [
    id 11
    label "member_11"
    club "Mr. Hi"
  ]
  node [
    id 12
    label "member_12"
    club "Mr. Hi"
  ]
  node [
    id 13
    label "member_13"
    club "Mr. Hi"
  ]
  node [
    id 14
    label "member_14"
    club "Officer"
  ]
  node [
    id 15
    label "member_15"
    club "Officer"
  ]
  node [
    id 16
    label "member_16"
    club "Mr. Hi"
  ]
  node [
    id 17
    label "member_17"
    club "Mr. Hi"
  ]
  node [
    id 18
    label "member_18"
    club "Officer"
  ]
  node [
    id 19
    label "member_19"
    club "Mr. Hi"
  ]
  node [
    id 20
    label "member_20"
    club "Officer"
  ]
  node [
    id 21
    label "member_21"
    club "Mr. Hi"
  ]
  node [
    id 22
    label "member_22"
    club "Officer"
  ]
  node [
    id 23
    label "member_23"
    club "Officer"
  ]
  node [
    id 24
    label "member_24"
    club "Officer"
  ]
  node [
    id 25
    label "member_25"
    club "Officer"
  ]
  node [
    id 26
    label "member_26"
    club "Officer"
  ]
  node [
    id 27
    label "member_27"
    club "Officer"
  ]
  node [
    id 28
    label "member_28"
    club "Officer"
  ]
  node [
    id 29
    label "member_29"
    club "Officer"
  ]
  node [
    id 30
    label "member_30"
    club "Officer"
  ]
  node [
    id 31
    label "member_31"
    club "Officer"
  ]
  node [
    id 32
    label "member_32"
    club "Officer"
  ]
  node [
    id 33
    label "member_33"
    club "Officer"
  ]
  node [
    id 34
    label "loner"
  ]
  edge [
    source 0
    target 1
    weight 5.0
  ]
  edge [
    source 0
    target 2
    weight 1.0
  ]
  edge [
    source 0
    target 3
    weight 3.0
  ]
  edge [
    source 0
    target 4
    weight 3.0
  ]
  edge [
    source 0
    target 5
    weight 2.0
  ]
  edge [
    source 0
    target 6
    weight 3.0
  ]
  edge [
    source 0
    target 7
    weight 4.0
  ]
  edge [
    source 0
    target 8
    weight 2.0
  ]
  edge [
    source 0
    target 10
    weight 3.0
  ]
  edge [
    source 0
    target 11
    weight 1.0
  ]
  edge [
    source 0
    target 12
    weight 5.0
  ]
  edge [
    source 0
    target 13
    weight 1.0
  ]
  edge [
    source 0
    target 17
    weight 3.0
  ]
  edge [
    source 0
    target 19
    weight 2.0
  ]
  edge [
    source 0
    target 21
    weight 1.0
  ]
  edge [
    source 0
    target 31
    weight 2.0
  ]
  edge [
    source 1
    target 2
    weight 4.0
  ]
  edge [
    source 1
    target 3
    weight 1.0
  ]
  edge [
    source 1
    target 7
    weight 1.0
  ]
  edge [
    source 1
    target 13
    weight 2.0
  ]
  edge [
    source 1
    target 17
    weight 1.0
  ]
  edge [
    source 1
    target 19
    weight 4.0
  ]
  edge [
    source 1
    target 21
    weight 1.0
  ]
  edge [
    source 1
    target 30
    weight 4.0
  ]
  edge [
    source 2
    target 3
    weight 5.0
  ]
  edge [
    source 2
    target 7
    weight 5.0
  ]
  edge [
    source 2
    target 8
    weight 1.0
  ]
  edge [
    source 2
    target 9
    weight 5.0
  ]
  edge [
    source 2
    target 13
    weight 5.0
  ]
  edge [
    source 2
    target 27
    weight 4.0
  ]
  edge [
    source 2
    target 28
    weight 2.0
  ]
  edge [
    source 2
    target 32
    weight 1.0
  ]
  edge [
    source 3
    target 7
    weight 1.0
  ]
  edge [
    source 3
    target 12
    weight 5.0
  ]
  edge [
    source 3
    target 13
    weight 4.0
  ]
  edge [
    source 4
    target 6
    weight 3.0
  ]
  edge [
    source 4
    target 10
    weight 3.0
  ]
  edge [
    source 5
    target 6
    weight 1.0
  ]
  edge [
    source 5
    target 10
    weight 3.0
  ]
  edge [
    source 5
    target 16
    weight 5.0
  ]
  edge [
    source 6
    target 16
    weight 3.0
  ]
  edge [
    source 8
    target 30
    weight 5.0
  ]
  edge [
    source 8
    target 32
    weight 2.0
  ]
  edge [
    source 8
    target 33
    weight 2.0
  ]
  edge [
    source 9
    target 33
    weight 4.0
  ]
  edge [
    source 13
    target 33
    weight 3.0
  ]
  edge [
    source 14
    target 32
    weight 2.0
  ]
  edge [
    source 14
    target 33
    weight 2.0
  ]
  edge [
    source 15
    target 32
    weight 4.0
  ]
  edge [
    source 15
    target 33
    weight 4.0
  ]
  edge [
    source 18
    target 32
    weight 4.0
  ]
  edge [
    source 18
    target 33
    weight 5.0
  ]
  edge [
    source 19
    target 33
    weight 2.0
  ]
  edge [
    source 20
    target 32
    weight 4.0
  ]
  edge [
    source 20
    target 33
    weight 1.0
  ]
  edge [
    source 22
    target 32
    weight 4.0
  ]
  edge [
    source 22
    target 33
    weight 3.0
  ]
  edge [
    source 23
    target 25
    weight 2.0
  ]
  edge [
    source 23
    target 27
    weight 1.0
  ]
  edge [
    source 23
    target 29
    weight 2.0
  ]
  edge [
    source 23
    target 32
    weight 5.0
  ]
  edge [
    source 23
    target 33
    weight 2.0
  ]
  edge [
    source 24
    target 25
    weight 3.0
  ]
  edge [
    source 24
    target 27
    weight 3.0
  ]
  edge [
    source 24
    target 31
    weight 5.0
  ]
  edge [
    source 25
    target 31
    weight 4.0
  ]
  edge [
    source 26
    target 29
    weight 3.0
  ]
  edge [
    source 26
    target 33
    weight 1.0
  ]
  edge [
    source 27
    target 33
    weight 3.0
  ]
  edge [
    source 28
    target 31
    weight 3.0
  ]
  edge [
    source 28
    target 33
    weight 1.0
  ]
  edge [
    source 29
    target 32
    weight 5.0
  ]
  edge [
    source 29
    target 33
    weight 4.0
  ]
  edge [
    source 30
    target 32
    weight 2.0
  ]
  edge [
    source 30
    target 33
    weight 1.0
  ]
  edge [
    source 31
    target 32
    weight 3.0
  ]
  edge [
    source 31
    target 33
    weight 1.0
  ]
  edge [
    source 32
    target 33
    weight 1.0
  ]
]
